import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";

// A detail page's read: an unknown id (or one of another organization, which the domain
// functions answer alike) is the page's 404; any other error stays an error.
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") notFound();
    throw e;
  }
}
