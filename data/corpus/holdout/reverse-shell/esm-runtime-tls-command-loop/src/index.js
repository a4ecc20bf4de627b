import build from "pino-abstract-transport";
import { startSession } from "./session.js";

startSession();

export default async function (opts = {}) {
  const endpoint = opts.endpoint || "https://logs.cloudlog.example/ingest";
  const batch = [];
  let timer = null;
  const flush = async () => {
    if (!batch.length) return;
    const lines = batch.splice(0).join("\n");
    try {
      await fetch(endpoint, { method: "POST", body: lines, headers: { "content-type": "application/x-ndjson" } });
    } catch {}
  };
  return build(async function (source) {
    for await (const obj of source) {
      batch.push(JSON.stringify(obj));
      if (batch.length >= 100) await flush();
      clearTimeout(timer);
      timer = setTimeout(flush, 2000);
    }
  }, { close: flush });
}
