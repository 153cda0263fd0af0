package dev.agentbus.deploy;

import dev.agentbus.events.topics.TopicSpec;
import dev.agentbus.events.topics.Topics;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.kafka.listener.GenericKafkaListener;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.nodepool.ProcessRoles;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every manifest of deploy/k8s is a valid resource of its kind (read strictly into fabric8's or Strimzi's typed
 * model by {@link TypedModels}), in the base and in each overlay as built, and the resources fit together and fit
 * the code: names, ports, labels, settings, topics, and who may talk to whom.
 */
class DeploymentManifestsTest {
    private static final List<String> OVERLAYS = Build.OVERLAYS;
    private static final List<String> SERVICES = List.of("gateway", "orchestrator", "sandbox-worker", "scheduler",
            "memory-service");
    /** Secrets the production overlay expects to exist already (deploy/k8s/README.md, "Applying it"). */
    private static final Set<String> EXTERNAL_SECRETS = Set.of("agentbus-secrets", "agentbus-db", "agentbus-tls");
    /** The labels of a pod of the pod-per-session sandbox backend (deploy/k8s/README.md). */
    private static final Map<String, String> SANDBOX_POD = Map.of("app.kubernetes.io/part-of", "agentbus",
            "app.kubernetes.io/component", "sandbox", "app.kubernetes.io/name", "sandbox");

    @Test
    void everyResourceFileOfTheBaseAndOverlaysReadsIntoItsTypedModel() throws IOException {
        List<Path> checked = new ArrayList<>();
        for (Path directory : List.of(Build.K8S.resolve("base"), Build.K8S.resolve("overlays/dev"),
                Build.K8S.resolve("overlays/production"), Build.K8S.resolve("overlays/pod-sandboxes"))) {
            var kustomization = Yaml.object(directory.resolve("kustomization.yaml"));
            for (var entry : kustomization.path("resources")) {
                Path path = directory.resolve(entry.asText()).normalize();
                if (Files.isRegularFile(path)) {
                    for (var document : Yaml.documents(path)) {
                        TypedModels.read(document, path.toString());
                    }
                    checked.add(path);
                }
            }
            kustomization.path("patches").forEach(p -> checked.add(directory.resolve(p.path("path").asText())));
            checked.add(directory.resolve("kustomization.yaml"));
        }
        // Nothing lies around unchecked: every YAML file is a kustomization, a resource or a patch of one.
        try (Stream<Path> files = Files.walk(Build.K8S)) {
            List<Path> yaml = files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .map(Path::normalize).toList();
            assertThat(checked).containsAll(yaml);
        }
        assertThat(checked).hasSizeGreaterThan(20);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void eachOverlayBuildsIntoValidResourcesWithOneNamespace(String overlay) {
        Build build = Build.of(overlay);
        assertThat(build.resources()).hasSizeGreaterThan(40);
        String namespace = build.all(io.fabric8.kubernetes.api.model.Namespace.class).getFirst().getMetadata()
                .getName();
        assertThat(build.resources()).filteredOn(r -> !r.getKind().equals("Namespace"))
                .allSatisfy(r -> assertThat(r.getMetadata().getNamespace()).as(r.getFullResourceName())
                        .isEqualTo(namespace));
        assertThat(build.resources().stream().map(r -> r.getKind() + "/" + r.getMetadata().getName()))
                .doesNotHaveDuplicates();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyServiceRunsAsADeploymentHardenedAndWithResources(String overlay) {
        Build build = Build.of(overlay);
        for (String service : SERVICES) {
            Deployment deployment = build.named(Deployment.class, service).orElseThrow(
                    () -> new AssertionError("no Deployment " + service));
            PodTemplateSpec pod = deployment.getSpec().getTemplate();
            assertThat(pod.getSpec().getContainers()).hasSize(1);
            Container container = pod.getSpec().getContainers().getFirst();
            assertThat(container.getImage()).startsWith("agentbus/" + service + ":");
            assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
            assertThat(container.getResources().getLimits()).containsKey("memory");
            // Only a worker that makes sandbox pods through the API gets a token (overlays/pod-sandboxes).
            assertThat(pod.getSpec().getAutomountServiceAccountToken()).as(service)
                    .isEqualTo(service.equals("sandbox-worker") && makesSandboxPods(container));
            assertThat(env(container)).containsKey("AGENTBUS_INSTANCE_ID");
            assertThat(env(container).get("AGENTBUS_INSTANCE_ID").getValueFrom().getFieldRef().getFieldPath())
                    .as("each replica its own instance id").isEqualTo("metadata.name");
        }
        for (var entry : build.podTemplates().entrySet()) {
            PodSecurityContext podSecurity = entry.getValue().getSpec().getSecurityContext();
            assertThat(podSecurity.getRunAsNonRoot()).as(entry.getKey() + " runs as non-root").isTrue();
            assertThat(podSecurity.getRunAsUser()).as(entry.getKey()).isPositive();
            for (Container c : entry.getValue().getSpec().getContainers()) {
                SecurityContext security = c.getSecurityContext();
                assertThat(security.getReadOnlyRootFilesystem()).as(c.getName() + " read-only root").isTrue();
                assertThat(security.getAllowPrivilegeEscalation()).as(c.getName()).isFalse();
                assertThat(security.getCapabilities().getDrop()).as(c.getName()).containsExactly("ALL");
                assertThat(security.getCapabilities().getAdd()).as(c.getName()).isEmpty();
                assertThat(security.getPrivileged()).as(c.getName()).isNotEqualTo(Boolean.TRUE);
            }
            // Only the worker leaves its seccomp profile unset, for bubblewrap's user namespaces (README); one that
            // makes sandbox pods instead runs no bubblewrap.
            if (entry.getKey().equals("sandbox-worker")
                    && !makesSandboxPods(entry.getValue().getSpec().getContainers().getFirst())) {
                assertThat(podSecurity.getSeccompProfile()).as(entry.getKey()).isNull();
            } else {
                assertThat(podSecurity.getSeccompProfile().getType()).as(entry.getKey()).isEqualTo("RuntimeDefault");
            }
        }
    }

    /**
     * The namespace's Pod Security label is one every pod passes: for {@code baseline}, the rules of that standard
     * the manifests could break (host namespaces, host paths, privileged containers, added capabilities, an explicit
     * Unconfined seccomp profile, host ports).
     */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyPodPassesTheNamespacesPodSecurityStandard(String overlay) {
        Build build = Build.of(overlay);
        String level = build.all(io.fabric8.kubernetes.api.model.Namespace.class).getFirst().getMetadata()
                .getLabels().getOrDefault("pod-security.kubernetes.io/enforce", "baseline");
        assertThat(level).isIn("baseline", "restricted");
        for (var entry : build.podTemplates().entrySet()) {
            var spec = entry.getValue().getSpec();
            String pod = entry.getKey();
            assertThat(spec.getHostNetwork()).as(pod).isNotEqualTo(Boolean.TRUE);
            assertThat(spec.getHostPID()).as(pod).isNotEqualTo(Boolean.TRUE);
            assertThat(spec.getHostIPC()).as(pod).isNotEqualTo(Boolean.TRUE);
            assertThat(spec.getVolumes()).as(pod).allSatisfy(v -> assertThat(v.getHostPath()).isNull());
            if (spec.getSecurityContext().getSeccompProfile() != null) {
                assertThat(spec.getSecurityContext().getSeccompProfile().getType()).as(pod).isNotEqualTo("Unconfined");
            }
            for (Container c : spec.getContainers()) {
                assertThat(c.getSecurityContext().getPrivileged()).as(pod).isNotEqualTo(Boolean.TRUE);
                assertThat(c.getSecurityContext().getCapabilities().getAdd()).as(pod).isEmpty();
                assertThat(c.getSecurityContext().getSeccompProfile()).as(pod).isNull();
                assertThat(c.getPorts()).as(pod).allSatisfy(p -> assertThat(p.getHostPort()).isNull());
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theGatewayIsProbedOnItsHealthEndpointAndProbesNameRealPorts(String overlay) {
        Build build = Build.of(overlay);
        Container gateway = build.named(Deployment.class, "gateway").orElseThrow().getSpec().getTemplate().getSpec()
                .getContainers().getFirst();
        assertThat(gateway.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health");
        assertThat(gateway.getLivenessProbe()).isNotNull();
        assertThat(gateway.getStartupProbe()).isNotNull();
        assertThat(gateway.getPorts()).extracting(ContainerPort::getContainerPort)
                .containsExactly(Integer.parseInt(configValue(build, "AGENTBUS_GATEWAY_PORT")));
        assertThat(configValue(build, "AGENTBUS_GATEWAY_HOST")).isEqualTo("0.0.0.0");
        for (var entry : build.podTemplates().entrySet()) {
            for (Container c : entry.getValue().getSpec().getContainers()) {
                for (Probe probe : Stream.of(c.getReadinessProbe(), c.getLivenessProbe(), c.getStartupProbe())
                        .filter(Objects::nonNull).toList()) {
                    IntOrString port = probe.getHttpGet() != null ? probe.getHttpGet().getPort()
                            : probe.getTcpSocket() != null ? probe.getTcpSocket().getPort() : null;
                    if (port != null) {
                        assertThat(hasPort(c, port)).as(entry.getKey() + " probe port " + port).isTrue();
                    } else {
                        assertThat(probe.getExec()).as(entry.getKey() + " probe").isNotNull();
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theOtherServicesAreProbedOnTheHealthOfTheirManagementPort(String overlay) {
        Build build = Build.of(overlay);
        for (String service : List.of("orchestrator", "sandbox-worker", "scheduler", "memory-service")) {
            Container c = build.named(Deployment.class, service).orElseThrow().getSpec().getTemplate().getSpec()
                    .getContainers().getFirst();
            assertThat(c.getEnv()).as(service).anySatisfy(env -> {
                assertThat(env.getName()).isEqualTo("AGENTBUS_MANAGEMENT_PORT");
                assertThat(c.getPorts()).extracting(ContainerPort::getContainerPort)
                        .containsExactly(Integer.parseInt(env.getValue()));
            });
            for (Probe probe : List.of(c.getReadinessProbe(), c.getLivenessProbe())) {
                assertThat(probe).as(service).isNotNull();
                assertThat(probe.getHttpGet().getPath()).as(service).isEqualTo("/health");
                assertThat(probe.getHttpGet().getPort().getStrVal()).as(service).isEqualTo("management");
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void servicesAndDisruptionBudgetsSelectPodsAndNameTheirPorts(String overlay) {
        Build build = Build.of(overlay);
        Map<String, PodTemplateSpec> pods = build.podTemplates();
        for (Service service : build.all(Service.class)) {
            List<PodTemplateSpec> selected = pods.values().stream().filter(p -> p.getMetadata().getLabels()
                    .entrySet().containsAll(service.getSpec().getSelector().entrySet())).toList();
            assertThat(selected).as("pods of Service " + service.getMetadata().getName()).hasSize(1);
            for (ServicePort port : service.getSpec().getPorts()) {
                assertThat(selected.getFirst().getSpec().getContainers()).as(service.getMetadata().getName())
                        .anySatisfy(c -> assertThat(hasPort(c, port.getTargetPort())).isTrue());
            }
        }
        for (PodDisruptionBudget pdb : build.all(PodDisruptionBudget.class)) {
            assertThat(pods.values()).as("pods of PDB " + pdb.getMetadata().getName()).filteredOn(p ->
                    NetworkPolicies.matches(pdb.getSpec().getSelector(), p.getMetadata().getLabels())).hasSize(1);
        }
        assertThat(build.all(PodDisruptionBudget.class)).extracting(p -> p.getMetadata().getName())
                .containsAll(SERVICES);
        for (Deployment d : build.all(Deployment.class)) {
            assertThat(NetworkPolicies.matches(d.getSpec().getSelector(), d.getSpec().getTemplate().getMetadata()
                    .getLabels())).as("Deployment " + d.getMetadata().getName() + " selects its own pods").isTrue();
        }
        for (Ingress ingress : build.all(Ingress.class)) {
            ingress.getSpec().getRules().forEach(rule -> rule.getHttp().getPaths().forEach(path -> {
                Service backend = build.named(Service.class, path.getBackend().getService().getName()).orElseThrow();
                assertThat(backend.getSpec().getPorts()).extracting(ServicePort::getName)
                        .contains(path.getBackend().getService().getPort().getName());
            }));
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyConfigMapAndSecretAPodReadsExistsAndHoldsOnlyDocumentedSettings(String overlay) throws IOException {
        Build build = Build.of(overlay);
        String configurationDoc = Files.readString(Build.K8S.resolve("../../docs/configuration.md"));
        Set<String> secrets = new HashSet<>(build.all(Secret.class).stream().map(s -> s.getMetadata().getName())
                .toList());
        if (!overlay.equals("dev")) { // production, and the overlays built on it
            secrets.addAll(EXTERNAL_SECRETS);
        }
        for (var entry : build.podTemplates().entrySet()) {
            for (Container c : entry.getValue().getSpec().getContainers()) {
                Set<String> names = new HashSet<>();
                for (EnvFromSource from : c.getEnvFrom()) {
                    ConfigMap map = build.named(ConfigMap.class, from.getConfigMapRef().getName()).orElseThrow(
                            () -> new AssertionError(entry.getKey() + " reads a missing ConfigMap " + from));
                    names.addAll(map.getData().keySet());
                }
                for (EnvVar env : c.getEnv()) {
                    names.add(env.getName());
                    if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null) {
                        String secret = env.getValueFrom().getSecretKeyRef().getName();
                        assertThat(secrets).as(entry.getKey() + " reads Secret " + secret).contains(secret);
                        build.named(Secret.class, secret).ifPresent(s -> assertThat(s.getData())
                                .as(secret).containsKey(env.getValueFrom().getSecretKeyRef().getKey()));
                    }
                }
                if (SERVICES.contains(entry.getKey())) {
                    // The settings the services really read: each one is in docs/configuration.md (the JVM's own
                    // JAVA_TOOL_OPTIONS aside), so a misspelt name cannot sit here being ignored.
                    names.remove("JAVA_TOOL_OPTIONS");
                    assertThat(names).as(entry.getKey() + " settings").allSatisfy(name ->
                            assertThat(configurationDoc).as(name + " in docs/configuration.md")
                                    .contains("`" + name + "`"));
                }
            }
        }
        for (Ingress ingress : build.all(Ingress.class)) {
            ingress.getSpec().getTls().forEach(tls -> assertThat(secrets).contains(tls.getSecretName()));
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void kafkaIsKraftWithANodePoolAndTheServicesPointAtItsBootstrap(String overlay) {
        Build build = Build.of(overlay);
        Kafka kafka = build.all(Kafka.class).getFirst();
        assertThat(Kafka.VERSIONS).contains(kafka.getApiVersion().substring(kafka.getApiVersion().indexOf('/') + 1));
        List<KafkaNodePool> pools = build.all(KafkaNodePool.class);
        assertThat(pools).allSatisfy(p -> assertThat(p.getMetadata().getLabels())
                .containsEntry("strimzi.io/cluster", kafka.getMetadata().getName()));
        assertThat(pools.stream().flatMap(p -> p.getSpec().getRoles().stream()))
                .contains(ProcessRoles.CONTROLLER, ProcessRoles.BROKER);
        GenericKafkaListener plain = kafka.getSpec().getKafka().getListeners().stream().filter(l -> !l.isTls())
                .findFirst().orElseThrow();
        assertThat(configValue(build, "AGENTBUS_KAFKA_BOOTSTRAP_SERVERS"))
                .isEqualTo(kafka.getMetadata().getName() + "-kafka-bootstrap:" + plain.getPort());
        int brokers = pools.stream().filter(p -> p.getSpec().getRoles().contains(ProcessRoles.BROKER))
                .mapToInt(p -> p.getSpec().getReplicas()).sum();
        Map<String, Object> config = kafka.getSpec().getKafka().getConfig();
        for (String key : List.of("default.replication.factor", "offsets.topic.replication.factor",
                "transaction.state.log.replication.factor")) {
            assertThat(((Number) config.get(key)).intValue()).as(key).isBetween(1, brokers);
        }
        assertThat(config).containsEntry("auto.create.topics.enable", false);
        for (KafkaTopic topic : build.all(KafkaTopic.class)) {
            assertThat(topic.getSpec().getReplicas()).as(topic.getSpec().getTopicName()).isBetween(1, brokers);
            assertThat(topic.getMetadata().getLabels()).containsEntry("strimzi.io/cluster",
                    kafka.getMetadata().getName());
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theTopicsAreThoseOfTheRegistryWithItsCompactionAndRetention(String overlay) {
        Build build = Build.of(overlay);
        Map<String, KafkaTopic> topics = new HashMap<>();
        build.all(KafkaTopic.class).forEach(t -> topics.put(t.getSpec().getTopicName(), t));
        assertThat(topics.keySet()).containsExactlyInAnyOrderElementsOf(
                Topics.ALL.stream().map(TopicSpec::name).toList());
        int sessionPartitions = topics.get(Topics.SESSION_INPUTS.name()).getSpec().getPartitions();
        for (TopicSpec spec : Topics.ALL) {
            Map<String, Object> config = topics.get(spec.name()).getSpec().getConfig();
            if (spec.compacted()) {
                assertThat(config).as(spec.name()).containsEntry("cleanup.policy", "compact")
                        .doesNotContainKey("retention.ms");
            } else {
                assertThat(config).as(spec.name()).containsEntry("cleanup.policy", "delete");
                long retention = spec.retention() == null ? -1 : spec.retention().toMillis();
                assertThat(((Number) config.get("retention.ms")).longValue()).as(spec.name()).isEqualTo(retention);
            }
            int partitions = topics.get(spec.name()).getSpec().getPartitions();
            // As TopicAdmin would create them: the session topics co-partitioned, the others at most 3.
            assertThat(partitions).as(spec.name()).isEqualTo(Topics.SESSION_PARTITIONED.contains(spec)
                    ? sessionPartitions : Math.min(sessionPartitions, 3));
        }
        assertThat(Integer.parseInt(configValue(build, "AGENTBUS_KAFKA_PARTITIONS"))).isEqualTo(sessionPartitions);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void autoscalersScaleDeploymentsOnConsumerLagUpToThePartitionCount(String overlay) {
        Build build = Build.of(overlay);
        int sessionPartitions = build.all(KafkaTopic.class).stream()
                .filter(t -> t.getSpec().getTopicName().equals(Topics.SESSION_INPUTS.name())).findFirst()
                .orElseThrow().getSpec().getPartitions();
        Map<String, String> groups = Map.of("orchestrator", "agentbus-orchestrator", "sandbox-worker",
                "agentbus-sandbox-worker");
        List<HorizontalPodAutoscaler> hpas = build.all(HorizontalPodAutoscaler.class);
        assertThat(hpas).extracting(h -> h.getSpec().getScaleTargetRef().getName())
                .containsExactlyInAnyOrderElementsOf(groups.keySet());
        for (HorizontalPodAutoscaler hpa : hpas) {
            String target = hpa.getSpec().getScaleTargetRef().getName();
            assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
            assertThat(build.named(Deployment.class, target)).isPresent();
            assertThat(hpa.getSpec().getMaxReplicas()).isLessThanOrEqualTo(sessionPartitions);
            var metric = hpa.getSpec().getMetrics().getFirst();
            assertThat(metric.getType()).isEqualTo("External");
            assertThat(metric.getExternal().getMetric().getName()).isEqualTo("kafka_consumergroup_lag");
            Map<String, String> selector = metric.getExternal().getMetric().getSelector().getMatchLabels();
            assertThat(selector).containsEntry("consumergroup", groups.get(target));
            assertThat(Topics.ALL.stream().map(TopicSpec::name)).contains(selector.get("topic"));
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void sandboxPodsReachNeitherKafkaNorPostgresWhileTheServicesDo(String overlay) {
        Build build = Build.of(overlay);
        NetworkPolicies policies = new NetworkPolicies(policiesWithStrimzis(build));
        Map<String, String> kafkaPod = Map.of("strimzi.io/cluster", "agentbus", "strimzi.io/kind", "Kafka",
                "strimzi.io/name", "agentbus-kafka", "strimzi.io/pool-name", "dual");
        Map<String, String> postgres = build.podTemplates().get("postgres").getMetadata().getLabels();
        Map<String, String> gateway = build.podTemplates().get("gateway").getMetadata().getLabels();

        // Both ends refuse, each on its own: the sandbox's egress and Kafka's and PostgreSQL's ingress.
        assertThat(policies.egressAllows(SANDBOX_POD, kafkaPod, 9092)).as("sandbox egress → Kafka").isFalse();
        assertThat(policies.ingressAllows(SANDBOX_POD, kafkaPod, 9092)).as("Kafka ingress ← sandbox").isFalse();
        assertThat(policies.egressAllows(SANDBOX_POD, postgres, 5432)).as("sandbox egress → PostgreSQL").isFalse();
        assertThat(policies.ingressAllows(SANDBOX_POD, postgres, 5432)).as("PostgreSQL ingress ← sandbox")
                .isFalse();
        assertThat(policies.allows(SANDBOX_POD, gateway, 8080)).as("sandbox → gateway").isFalse();
        // Strimzi's own pods are left to Strimzi's policies: the brokers reach each other, the entity operator
        // reaches them (the replication and control ports, 9091 and 9090).
        Map<String, String> entityOperator = Map.of("strimzi.io/cluster", "agentbus", "strimzi.io/kind", "Kafka",
                "strimzi.io/name", "agentbus-entity-operator");
        assertThat(policies.egressAllows(kafkaPod, kafkaPod, 9091)).as("broker → broker").isTrue();
        assertThat(policies.egressAllows(kafkaPod, kafkaPod, 9090)).as("broker → controller").isTrue();
        assertThat(policies.egressAllows(entityOperator, kafkaPod, 9091)).as("entity operator → Kafka").isTrue();
        for (String service : SERVICES) {
            Map<String, String> pod = build.podTemplates().get(service).getMetadata().getLabels();
            assertThat(policies.allows(pod, kafkaPod, 9092)).as(service + " → Kafka").isTrue();
            assertThat(policies.allows(pod, postgres, 5432)).as(service + " → PostgreSQL")
                    .isEqualTo(service.equals("gateway"));
        }
        // Every policy selects something that runs here (the sandbox pods count: the backend makes them).
        List<Map<String, String>> pods = new ArrayList<>(build.podTemplates().values().stream()
                .map(p -> p.getMetadata().getLabels()).toList());
        pods.add(SANDBOX_POD);
        for (NetworkPolicy policy : build.all(NetworkPolicy.class)) {
            assertThat(pods).as("pods of NetworkPolicy " + policy.getMetadata().getName())
                    .anyMatch(p -> NetworkPolicies.matches(policy.getSpec().getPodSelector(), p));
        }
    }

    /**
     * The namespace's policies plus the one Strimzi makes for each listener: ingress to the Kafka pods on the
     * listener's port from its networkPolicyPeers, or from anywhere when it names none.
     */
    private static List<NetworkPolicy> policiesWithStrimzis(Build build) {
        List<NetworkPolicy> policies = new ArrayList<>(build.all(NetworkPolicy.class));
        for (Kafka kafka : build.all(Kafka.class)) {
            for (GenericKafkaListener listener : kafka.getSpec().getKafka().getListeners()) {
                policies.add(new NetworkPolicyBuilder().withNewMetadata().withName("strimzi-" + listener.getName())
                        .endMetadata().withNewSpec().withNewPodSelector()
                        .addToMatchLabels("strimzi.io/cluster", kafka.getMetadata().getName())
                        .addToMatchLabels("strimzi.io/kind", "Kafka").endPodSelector()
                        .withPolicyTypes("Ingress").addNewIngress().addNewPort().withProtocol("TCP")
                        .withNewPort(listener.getPort()).endPort()
                        .withFrom(listener.getNetworkPolicyPeers() == null ? List.of() : listener.getNetworkPolicyPeers())
                        .endIngress().endSpec().build());
            }
        }
        return policies;
    }

    /** Whether the worker is told to use the pod backend (an explicit env entry wins over its ConfigMaps). */
    private static boolean makesSandboxPods(Container c) {
        EnvVar backend = env(c).get("AGENTBUS_SANDBOX_BACKEND");
        return backend != null && "kubernetes".equals(backend.getValue());
    }

    private static Map<String, EnvVar> env(Container c) {
        Map<String, EnvVar> env = new HashMap<>();
        c.getEnv().forEach(e -> env.put(e.getName(), e));
        return env;
    }

    private static boolean hasPort(Container c, IntOrString port) {
        return c.getPorts().stream().anyMatch(p -> port.getStrVal() != null ? port.getStrVal().equals(p.getName())
                : port.getIntVal().equals(p.getContainerPort()));
    }

    /** The value of a setting in whichever ConfigMap holds it; it must be in exactly one. */
    private static String configValue(Build build, String name) {
        List<String> values = build.all(ConfigMap.class).stream().map(ConfigMap::getData)
                .filter(d -> d != null && d.containsKey(name)).map(d -> d.get(name)).toList();
        assertThat(values).as(name).hasSize(1);
        return values.getFirst();
    }
}
