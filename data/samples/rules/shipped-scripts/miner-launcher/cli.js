#!/usr/bin/env node
console.log('usage: gpu-bench [--quick]');
