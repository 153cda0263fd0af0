package dev.agentbus.deploy;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.strimzi.api.kafka.model.kafka.Kafka;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The strict reader refuses what the API server would refuse, and says where. */
class TypedModelsTest {
    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              annotations:
                note: "%s"
            spec:
              replicas: %s
              selector:
                matchLabels: {app: web}
              template:
                metadata:
                  labels: {app: web}
                spec:
                  containers:
                    - name: web
                      image: web:1
                      %s:
                        tcpSocket:
                          port: 8080
            """;

    private static final String KAFKA = """
            apiVersion: kafka.strimzi.io/v1
            kind: Kafka
            metadata:
              name: k
            spec:
              kafka:
                %s:
                  - name: plain
                    port: 9092
                    type: internal
                    tls: false
              entityOperator:
                topicOperator: {}
            """;

    @Test
    void aValidDeploymentReadsIntoFabric8sModel() {
        var deployment = (Deployment) read(DEPLOYMENT.formatted("x", "2", "readinessProbe"));
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getReadinessProbe()
                .getTcpSocket().getPort().getIntVal()).isEqualTo(8080);
    }

    @Test
    void anUnknownFieldDeepInsideACoreKindFailsWithItsName() {
        assertThatThrownBy(() -> read(DEPLOYMENT.formatted("x", "2", "readinesProbe")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("readinesProbe");
    }

    @Test
    void aValueOfTheWrongTypeFails() {
        assertThatThrownBy(() -> read(DEPLOYMENT.formatted("x", "\"two\"", "readinessProbe")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("replicas");
        // A number where Kubernetes wants a string: an annotation value written without quotes.
        assertThatThrownBy(() -> read(DEPLOYMENT.replace("\"%s\"", "%s").formatted("3600", "2", "readinessProbe")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("note");
    }

    @Test
    void strimziKindsReadIntoStrimzisOwnClassesAsStrictly() {
        var kafka = (Kafka) read(KAFKA.formatted("listeners"));
        assertThat(kafka.getSpec().getKafka().getListeners().getFirst().getPort()).isEqualTo(9092);
        assertThatThrownBy(() -> read(KAFKA.formatted("listener")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("listener");
    }

    @Test
    void aKindOrVersionWithoutATypedModelFails() {
        assertThatThrownBy(() -> read(KAFKA.formatted("listeners").replace("kafka.strimzi.io/v1",
                "kafka.strimzi.io/v1alpha9"))).isInstanceOf(AssertionError.class)
                .hasMessageContaining("no typed model");
        assertThatThrownBy(() -> read(DEPLOYMENT.formatted("x", "2", "readinessProbe").replace("apps/v1",
                "extensions/v1beta1"))).isInstanceOf(AssertionError.class).hasMessageContaining("no typed model");
    }

    private static Object read(String yaml) {
        return TypedModels.read(Yaml.resources(yaml).getFirst(), "test");
    }
}
