// Handlers read their configuration at module scope; unit tests give them a fixed one.
process.env.PACKAGES_TABLE = 'packages-test';
process.env.AWS_REGION = 'us-east-1';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
// Metrics flushes would print EMF JSON between test results; the tests that check metrics read them from a spy.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
// The SDK pin is deliberate (TOOLCHAIN.md): silence its Node 20 notice in test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.JOBS_TABLE = 'jobs-test';
process.env.SCAN_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/scan';
process.env.UPLOAD_BUCKET = 'uploads-test';
process.env.AWS_ACCESS_KEY_ID = 'test';
process.env.AWS_SECRET_ACCESS_KEY = 'test';
