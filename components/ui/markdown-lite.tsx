import { Fragment } from "react";

// The blocks and spans are derived from a fixed source string and never reordered, so their
// position is a stable key (hence the noArrayIndexKey suppressions below).
// Just enough Markdown for our own API prose: ## headings, - lists, `code`, paragraphs.
function inline(text: string) {
  return text.split(/(`[^`]+`)/g).map((part, i) =>
    part.startsWith("`") && part.endsWith("`") ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: see above
      <code key={i} className="rounded bg-slate-100 px-1 py-0.5 text-[0.85em]">
        {part.slice(1, -1)}
      </code>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: see above
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

export function MarkdownLite({ source }: { source: string }) {
  const blocks: React.ReactNode[] = [];
  let list: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (list.length) {
      blocks.push(
        <ul key={blocks.length} className="my-2 list-disc space-y-1 pl-6">
          {list.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={i}>{inline(l)}</li>
          ))}
        </ul>,
      );
      list = [];
    }
    if (para.length) {
      blocks.push(
        <p key={blocks.length} className="my-2">
          {inline(para.join(" "))}
        </p>,
      );
      para = [];
    }
  };
  for (const line of source.split("\n")) {
    if (line.startsWith("## ")) {
      flush();
      blocks.push(
        <h2 key={blocks.length} className="mt-6 text-lg font-semibold">
          {line.slice(3)}
        </h2>,
      );
    } else if (line.startsWith("- ")) {
      if (para.length) flush();
      list.push(line.slice(2));
    } else if (line.startsWith("  ") && list.length) {
      list[list.length - 1] += ` ${line.trim()}`;
    } else if (line.trim() === "") flush();
    else {
      if (list.length) flush();
      para.push(line.trim());
    }
  }
  flush();
  return <div className="text-slate-700">{blocks}</div>;
}
