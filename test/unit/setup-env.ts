// Handlers read their configuration at module scope; unit tests give them a fixed one.
process.env.PACKAGES_TABLE = 'packages-test';
process.env.AWS_REGION = 'us-east-1';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
// The SDK pin is deliberate (TOOLCHAIN.md): silence its Node 20 notice in test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
