package dev.agentbus.sandbox.sandboxing;

import dev.agentbus.sandbox.shell.ShellProcess;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A sandbox that is a pod of its own ({@link SandboxPods} says what it looks like), shells started in it through
 * the API's exec. Killing everything is {@code kill -9 -1} in the pod, which ends every process but the pod's
 * pid 1 (a sleep loop, as in the Docker backend's container); a pod that is gone (evicted, deleted, its node
 * lost) or that was made for a workspace path that has since moved is replaced by a new one instead.
 */
final class KubernetesHost implements SandboxHost {
    private final KubernetesClient client;
    private final SandboxPods pods;
    private final String namespace;
    private final String baseName;
    private final SandboxKey key;
    private final WorkspaceOwner owner;
    private Path workspace;
    private String podName;
    private boolean moved;
    private int generation;

    private KubernetesHost(KubernetesClient client, SandboxPods pods, String namespace, String baseName,
                           SandboxKey key, WorkspaceOwner owner, Path workspace) {
        this.client = client;
        this.pods = pods;
        this.namespace = namespace;
        this.baseName = baseName;
        this.key = key;
        this.owner = owner;
        this.workspace = workspace;
    }

    /** Makes the pod and waits until it is ready. */
    static KubernetesHost create(KubernetesClient client, SandboxPods pods, String namespace, SandboxKey key,
                                 Path workspace) throws SandboxException {
        KubernetesHost host = new KubernetesHost(client, pods, namespace, SandboxPods.podName(key.uniqueName()), key,
                WorkspaceOwner.prepare(workspace), workspace);
        host.startPod();
        return host;
    }

    String podName() {
        return podName;
    }

    @Override
    public String backend() {
        return "kubernetes";
    }

    @Override
    public String workspacePath() {
        return "/workspace";
    }

    @Override
    public synchronized void moved(Path workspace) {
        this.workspace = workspace;
        this.moved = true;
    }

    @Override
    public synchronized ShellProcess startShell() throws SandboxException {
        try {
            // The inner shell takes stderr into stdout, so the output arrives as one stream in order.
            ExecWatch watch = pod().inContainer(pods.container()).redirectingInput().redirectingOutput()
                    .exec("/bin/sh", "-c", "exec /bin/sh 2>&1");
            return new ExecShell(watch);
        } catch (KubernetesClientException e) {
            throw new SandboxException("could not start a shell in the sandbox pod " + podName + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void killAll() throws SandboxException {
        Pod pod = currentPod();
        if (moved || pod == null || pod.getMetadata().getDeletionTimestamp() != null) {
            pods.remove(podName);
            startPod();
            moved = false;
            return;
        }
        // The API wants at least one stream of an exec; the kill's output is of no interest.
        try (ExecWatch kill = pod().inContainer(pods.container()).writingOutput(OutputStream.nullOutputStream())
                .exec("/bin/sh", "-c", "kill -9 -1; true")) {
            kill.exitCode().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException("interrupted while clearing the sandbox pod " + podName, e);
        } catch (ExecutionException | TimeoutException | KubernetesClientException e) {
            // The pod does not answer: start again with a new one rather than keep a sandbox in an unknown state.
            pods.remove(podName);
            startPod();
        }
    }

    @Override
    public synchronized void close() {
        pods.remove(podName);
    }

    private void startPod() throws SandboxException {
        podName = generation == 0 ? baseName : SandboxPods.podName(baseName + "-" + generation);
        generation++;
        pods.start(pods.describe(podName, key, workspace, owner));
    }

    private Pod currentPod() {
        try {
            return pod().get();
        } catch (KubernetesClientException e) {
            return null;
        }
    }

    private PodResource pod() {
        return client.pods().inNamespace(namespace).withName(podName);
    }

    /** A shell attached through exec: its stdin, its merged output, and its exit status once it ended. */
    private record ExecShell(ExecWatch watch) implements ShellProcess {
        @Override
        public OutputStream stdin() {
            return watch.getInput();
        }

        @Override
        public InputStream output() {
            return watch.getOutput();
        }

        @Override
        public OptionalInt exitStatus() {
            var code = watch.exitCode();
            return code.isDone() && !code.isCompletedExceptionally() && code.getNow(null) != null
                    ? OptionalInt.of(code.getNow(-1)) : OptionalInt.empty();
        }

        @Override
        public void destroy() {
            watch.close();
        }
    }
}
