#!/usr/bin/env node
const { bench } = require("./index");
for (const a of ["md5", "sha1", "sha256", "sha512"]) console.log(bench(a));
