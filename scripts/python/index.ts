// A Python runtime for Pulumi programs: `ensurePython()` provides it (the e2e
// global setup calls it, as it calls ensureEngine), `programVenv()` makes a
// program's own virtualenv with packages such as the generated SDK.
export {
  ensurePython,
  pipInstall,
  programVenv,
  pythonCacheLayout,
  trimPyproject,
  patchRpc,
  PythonUnavailableError,
  PYTHON_DEBIAN_PACKAGES,
  PYTHON_LANGUAGE_HOST_SDK_VERSION,
  SYSTEM_PYTHON,
  type EnsurePythonOptions,
  type PythonRuntime,
} from "./provision.js";
