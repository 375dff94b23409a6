import { field } from "@/components/ui/styles";

// A dashboard form control's error message, and the attributes that tie the control to it
// (so screen readers announce the message with the field).
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className={field.error}>
      {message}
    </p>
  );
}

export const errorAttrs = (errorId: string, message?: string) => ({
  "aria-invalid": !!message,
  "aria-describedby": message ? errorId : undefined,
});
