// What Astro pages may ask of the server, passed in `locals` by the Fastify host. Pages never
// import src/server themselves (the build would create a second database and cache).
export interface PageServices {
  productName: string;
  productDomain: string;
  /** true when no user exists yet: /setup is offered */
  needsSetup(): Promise<boolean>;
  /** Creates the first super admin; refuses once any user exists. Returns an error text or null. */
  createFirstAdmin(input: { email: string; password: string; fullName: string }): Promise<string | null>;
}
