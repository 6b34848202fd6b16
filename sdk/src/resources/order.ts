export * from "./order/resource.js"; // the class lives in order/; this path stays importable for programs, tests and examples
