export * from "./validation/resource.js"; // the class lives in validation/; this path stays importable for programs, tests and examples
