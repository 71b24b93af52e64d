declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }

  interface Instance extends EventEmitter {
    stop(): void;
  }

  function autocannon(options: AutocannonOptions): Instance;
  export default autocannon;
}
