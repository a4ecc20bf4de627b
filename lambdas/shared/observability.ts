/**
 * Service names of the functions. Each function logs, traces and publishes metrics under its own
 * name, `pkgscan-<handler file>`: the function construct sets `POWERTOOLS_SERVICE_NAME` to it
 * (lib/constructs/service-function.ts), which Powertools reads. The local service runs every
 * handler in one process with one environment, so there the name comes from the handler itself
 * (pipeline functions) or from the invocation's function name, which the local adapter derives by
 * the same rule (API functions).
 */

/** Namespace of the service's CloudWatch metrics. */
export const METRICS_NAMESPACE = 'pkgscan';

/** The service name of the function whose handler file is `handler` (`get-package`, `scanner`). */
export function serviceNameOf(handler: string): string {
  return `pkgscan-${handler}`;
}

/** The service name a pipeline function logs under: its construct's, else its own. */
export function pipelineServiceName(handler: string): string {
  return process.env.POWERTOOLS_SERVICE_NAME ?? serviceNameOf(handler);
}
