import { redirect } from "next/navigation";

// Everyone has an account page; administration is linked from there for owners and admins.
export default function SettingsPage() {
  redirect("/dashboard/settings/account");
}
