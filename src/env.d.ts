/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    services: import('./lib/page-services.ts').PageServices;
  }
}
