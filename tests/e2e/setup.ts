// Every inline-program run of the Automation API adds an uncaughtException
// and an unhandledRejection listener to the process (@pulumi/pulumi 3.270's
// language server) and a file here runs up to ~60 of them; raise the limit so
// Node's leak warning does not bury real output.
process.setMaxListeners(200);
