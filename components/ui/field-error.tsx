// Kept so imports written before the kit moved keep working; new code imports
// components/ui/field.tsx.
export { FieldError, errorAttrs } from "@/components/ui/field";
