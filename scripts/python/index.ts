// A Python runtime for Pulumi programs: `ensurePython()` provides it (the e2e
// global setup calls it, as it calls ensureEngine); `makeVenv()` and
// `buildWheel()` do what a user does with pip for a program's virtualenv.
export {
  buildWheel,
  ensurePython,
  makeVenv,
  pipFreeze,
  pythonCacheLayout,
  venvPython,
  PythonUnavailableError,
  PYTEST_VERSION,
  PYTHON_LANGUAGE_HOST_MODULE,
  PYTHON_LANGUAGE_HOST_SDK_VERSION,
  type EnsurePythonOptions,
  type PythonRuntime,
} from "./provision.js";
