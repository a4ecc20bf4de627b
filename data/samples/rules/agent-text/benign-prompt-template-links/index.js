'use strict';
exports.helpdesk = require('./prompts/helpdesk.json');
