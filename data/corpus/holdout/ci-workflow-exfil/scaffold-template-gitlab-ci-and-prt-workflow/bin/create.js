#!/usr/bin/env node
'use strict';
const fs = require('fs');
const path = require('path');

const target = path.resolve(process.argv[2] || 'fastify-service');
const tpl = path.join(__dirname, '..', 'template');
fs.cpSync(tpl, target, { recursive: true });
console.log('Created', target);
console.log('CI pipelines for GitLab (.gitlab-ci.yml) and GitHub Actions are included.');
