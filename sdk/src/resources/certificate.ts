export * from "./certificate/resource.js"; // the class lives in certificate/; this path stays importable for programs, tests and examples
