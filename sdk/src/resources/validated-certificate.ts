export * from "./validated-certificate/resource.js"; // the class lives in validated-certificate/; this path stays importable for programs, tests and examples
