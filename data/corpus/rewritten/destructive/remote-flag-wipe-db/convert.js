module.exports = (rows) => rows.map((r) => ({ ...r }));
