import fs from 'node:fs';
import path from 'node:path';
import { badRequest, notFound } from '../errors';
import { PythonNotFoundError, type PythonSetting, resolvePython } from '../kernels/python-resolver';
import type { Project, ProjectPython } from '../protocol';
import type { Store } from '../store/store';
import { resolveProjectRoot } from './project-service';

/** What choosing a project's interpreter needs: the store, and the kernels' own environment and override. */
export interface ProjectPythonOptions {
  store: Store;
  /** The environment kernels run with: the check must see the same PATH they will. */
  kernelEnv: NodeJS.ProcessEnv;
  /** CAIRN_KERNEL_PYTHON, if set: it wins over every project's setting. */
  pythonOverride: string | null;
}

/**
 * The interpreter path a project's kernels are told to use, read when a kernel starts: CAIRN_KERNEL_PYTHON,
 * else the project's python_path. Null leaves the choice to the resolver (`.venv`/`venv`, else PATH).
 */
export function configuredPython(options: ProjectPythonOptions, projectId: string): string | null {
  return options.pythonOverride ?? options.store.projects.get(projectId)?.python_path ?? null;
}

/** Who set the path configuredPython returns: CAIRN_KERNEL_PYTHON wins over the project's settings. */
export function configuredPythonBy(options: ProjectPythonOptions): PythonSetting {
  return options.pythonOverride ? 'environment' : 'project';
}

/**
 * Which interpreter the project's kernels would start with. Runs the candidate (as starting a kernel would)
 * to learn its version; throws python_not_found (503) with what to install or fix when none is usable.
 */
export async function describeProjectPython(
  options: ProjectPythonOptions,
  projectId: string,
): Promise<ProjectPython> {
  const project = requireProject(options.store, projectId);
  const found = await resolvePython({
    projectRoot: resolveProjectRoot(project.path),
    configuredPath: configuredPython(options, project.id),
    configuredBy: configuredPythonBy(options),
    env: options.kernelEnv,
  });
  const source = found.source === 'configured' ? configuredPythonBy(options) : found.source;
  return { command: found.command, args: [...found.args], source, version: found.version };
}

/**
 * Sets (after checking that it runs as Python 3.9+) or clears the project's interpreter. A path that is not
 * usable is refused with a 400 saying why, so a saved setting is one that worked when it was saved.
 */
export async function setProjectPython(
  options: ProjectPythonOptions,
  projectId: string,
  pythonPath: string | null,
): Promise<Project> {
  const project = requireProject(options.store, projectId);
  if (pythonPath !== null) await checkInterpreter(options, project, pythonPath);
  const updated = options.store.projects.setPythonPath(project.id, pythonPath);
  if (!updated) throw notFound('Project', projectId);
  return updated;
}

async function checkInterpreter(
  options: ProjectPythonOptions,
  project: Project,
  file: string,
): Promise<void> {
  if (!path.isAbsolute(file)) {
    throw badRequest(
      `The interpreter path must be absolute, like /usr/bin/python3 or ${path.join(project.path, '.venv', 'bin', 'python')} (got "${file}").`,
    );
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw badRequest(
      `${file} does not exist on the machine running Cairn. Enter the full path of a Python 3 interpreter there.`,
    );
  }
  if (!stat.isFile()) {
    throw badRequest(
      `${file} is not a file. Enter the path of the Python interpreter itself (…/bin/python3).`,
    );
  }
  try {
    await resolvePython({
      projectRoot: resolveProjectRoot(project.path),
      configuredPath: file,
      env: options.kernelEnv,
    });
  } catch (error) {
    // The resolver's message already names the file and why it failed; here it is the caller's input.
    if (error instanceof PythonNotFoundError) throw badRequest(error.message);
    throw error;
  }
}

function requireProject(store: Store, projectId: string): Project {
  const project = store.projects.get(projectId);
  if (!project) throw notFound('Project', projectId);
  return project;
}
