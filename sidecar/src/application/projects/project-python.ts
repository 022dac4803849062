import fs from 'node:fs';
import path from 'node:path';
import { badRequest, notFound } from '../../errors';
import type { PythonCommand } from '../../kernels/driver-spawn';
import { PythonNotFoundError, type PythonSetting, resolvePython } from '../../kernels/python-resolver';
import type { SandboxSpec } from '../../process/sandbox';
import type { Project, ProjectPython } from '../../protocol';
import type { Store } from '../../store/store';
import { resolveProjectRoot } from '../../tools/project-root';

/** What choosing a project's interpreter needs: the store, and the kernels' own environment and override. */
export interface ProjectPythonOptions {
  store: Store;
  /** The environment kernels run with: the check must see the same PATH they will. */
  kernelEnv: NodeJS.ProcessEnv;
  /** CAIRN_KERNEL_PYTHON, if set: it wins over every project's setting. */
  pythonOverride: string | null;
  /**
   * The sandbox a project's processes run in (null when it is off): an interpreter is checked by running it,
   * and one in the project (its `.venv`) is a file the agent may have written.
   */
  sandboxFor?: (projectId: string) => SandboxSpec | null;
}

/**
 * Which Python each project's kernels start with: CAIRN_KERNEL_PYTHON, else the project's python_path
 * (checked when set), else what the resolver finds (`.venv`/`venv`, else PATH).
 */
export class ProjectPythonService {
  constructor(private readonly options: ProjectPythonOptions) {}

  /**
   * The interpreter path a project's kernels are told to use, read when a kernel starts. Null leaves the
   * choice to the resolver.
   */
  configured(projectId: string): string | null {
    return this.options.pythonOverride ?? this.options.store.projects.get(projectId)?.python_path ?? null;
  }

  /** Who set the path `configured` returns: CAIRN_KERNEL_PYTHON wins over the project's settings. */
  configuredBy(): PythonSetting {
    return this.options.pythonOverride ? 'environment' : 'project';
  }

  /**
   * Which interpreter the project's kernels would start with (GET /api/projects/{id}/python). Runs the
   * candidate (as starting a kernel would) to learn its version; throws python_not_found (503) with what to
   * install or fix when none is usable.
   */
  async describe(projectId: string): Promise<ProjectPython> {
    const project = this.requireProject(projectId);
    const found = await resolvePython({
      projectRoot: resolveProjectRoot(project.path),
      configuredPath: this.configured(project.id),
      configuredBy: this.configuredBy(),
      env: this.options.kernelEnv,
      sandbox: this.sandboxOf(project.id),
    });
    const source = found.source === 'configured' ? this.configuredBy() : found.source;
    return { command: found.command, args: [...found.args], source, version: found.version };
  }

  /**
   * The interpreter a session's project runs Python with besides its kernels (tools loaded with LoadTool):
   * the one its kernels would start with. Throws python_not_found with what to do when there is none.
   */
  async forSession(sessionId: string, projectRoot: string): Promise<PythonCommand> {
    const projectId = this.options.store.sessions.get(sessionId)?.project_id ?? null;
    const found = await resolvePython({
      projectRoot,
      configuredPath: projectId ? this.configured(projectId) : this.options.pythonOverride,
      configuredBy: this.configuredBy(),
      env: this.options.kernelEnv,
      sandbox: projectId ? this.sandboxOf(projectId) : null,
    });
    return { command: found.command, args: [...found.args] };
  }

  /**
   * Sets (after checking that it runs as Python 3.9+) or clears the project's interpreter. A path that is
   * not usable is refused with a 400 saying why, so a saved setting is one that worked when it was saved.
   */
  async set(projectId: string, pythonPath: string | null): Promise<Project> {
    const project = this.requireProject(projectId);
    if (pythonPath !== null) await this.checkInterpreter(project, pythonPath);
    const updated = this.options.store.projects.setPythonPath(project.id, pythonPath);
    if (!updated) throw notFound('Project', projectId);
    return updated;
  }

  private async checkInterpreter(project: Project, file: string): Promise<void> {
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
        env: this.options.kernelEnv,
        sandbox: this.sandboxOf(project.id),
      });
    } catch (error) {
      // The resolver's message already names the file and why it failed; here it is the caller's input.
      if (error instanceof PythonNotFoundError) throw badRequest(error.message);
      throw error;
    }
  }

  private sandboxOf(projectId: string): SandboxSpec | null {
    return this.options.sandboxFor?.(projectId) ?? null;
  }

  private requireProject(projectId: string): Project {
    const project = this.options.store.projects.get(projectId);
    if (!project) throw notFound('Project', projectId);
    return project;
  }
}
