/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    services: import('./lib/page-services.ts').PageServices;
    /** The client's address as the server judges it (TRUST_PROXY aware), for throttles */
    clientIp: string;
  }
}
