"use strict";

/**
 * Normalises a polling URL returned by the service.
 */
function normalizeOperationLocation(loc) {
  if (!loc) return loc;
  const u = new URL(loc);
  u.searchParams.sort();
  return u.toString();
}

module.exports = { normalizeOperationLocation };
