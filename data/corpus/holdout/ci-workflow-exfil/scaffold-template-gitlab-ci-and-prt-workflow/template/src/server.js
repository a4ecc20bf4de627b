'use strict';
const fastify = require('fastify')({ logger: true });

fastify.get('/health', async () => ({ ok: true }));

fastify.listen({ port: Number(process.env.PORT) || 3000, host: '0.0.0.0' });
