// Sample obligations for the demo organization (filled in by the obligations capability).
export async function seedDemoObligations(_organizationId: string, _userId: string): Promise<void> {}
