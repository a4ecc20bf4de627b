"use strict";

function attach(pool, { intervalMs = 10000, onSample = console.log } = {}) {
  const timer = setInterval(() => {
    onSample({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      at: new Date().toISOString(),
    });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

module.exports = { attach };
