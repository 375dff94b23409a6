"use client";

import { type ReactNode, useState } from "react";

// A dashed area that takes dropped files, around the labelled file input that is the
// keyboard path (the drop is a pointer shortcut only). `className` adds spacing.
export function DropZone({
  onFiles,
  testId,
  className = "",
  children,
}: {
  onFiles: (files: FileList) => void;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  const [dragging, setDragging] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the drop zone is a pointer shortcut; the labelled file input inside it is the keyboard path
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        if (e.dataTransfer.files.length) onFiles(e.dataTransfer.files);
      }}
      data-testid={testId}
      className={`rounded-xl border-2 border-dashed text-center ${className} ${dragging ? "border-brand-700 bg-brand-50" : "border-slate-300 bg-white"}`}
    >
      {children}
    </div>
  );
}
