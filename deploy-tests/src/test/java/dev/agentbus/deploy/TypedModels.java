package dev.agentbus.deploy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads a manifest into the typed model of its kind, strictly: fabric8's Kubernetes model for the core kinds,
 * Strimzi's own API classes for its kinds. Both models would keep an unknown field in {@code additionalProperties}
 * (their {@code @JsonAnySetter}); this reader turns the any-setters off and makes unknown fields fail, so a typo
 * anywhere in a manifest ({@code readinesProbe}, {@code replica}) fails with its path. A value of the wrong type
 * fails too: no coercion between strings, numbers and booleans, as the API server would refuse them.
 */
final class TypedModels {
    /** The kinds the manifests may use, keyed by "apiVersion/kind" as each class declares it. */
    private static final Map<String, Class<? extends HasMetadata>> KINDS = List.of(ConfigMap.class, Secret.class,
                    Service.class, Namespace.class, PersistentVolumeClaim.class, Deployment.class,
                    StatefulSet.class, PodDisruptionBudget.class, HorizontalPodAutoscaler.class,
                    NetworkPolicy.class, Ingress.class, Kafka.class, KafkaNodePool.class, KafkaTopic.class,
                    ServiceAccount.class, Role.class, RoleBinding.class)
            .stream().collect(Collectors.toMap(TypedModels::key, Function.identity()));

    private static final ObjectMapper STRICT = strictMapper();

    private TypedModels() {
    }

    static String key(Class<? extends HasMetadata> type) {
        return HasMetadata.getApiVersion(type) + "/" + HasMetadata.getKind(type);
    }

    /** The typed resource; an AssertionError naming the source and the problem if it is not a valid one. */
    static HasMetadata read(JsonNode manifest, String source) {
        String apiVersion = manifest.path("apiVersion").asText("");
        String kind = manifest.path("kind").asText("");
        Class<? extends HasMetadata> type = KINDS.get(apiVersion + "/" + kind);
        if (type == null) {
            throw new AssertionError(source + ": no typed model for apiVersion '" + apiVersion + "' kind '" + kind
                    + "'; known: " + KINDS.keySet().stream().sorted().toList());
        }
        try {
            return STRICT.treeToValue(manifest, type);
        } catch (Exception e) {
            throw new AssertionError(source + ": " + kind + " " + manifest.path("metadata").path("name").asText()
                    + " is not a valid " + type.getName() + ": " + e.getMessage(), e);
        }
    }

    private static ObjectMapper strictMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .annotationIntrospector(new StrictIntrospector())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        // A number or boolean where the API wants a string (an annotation value, an env value) is refused by the
        // API server, so refuse it here too.
        for (CoercionInputShape shape : List.of(CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean)) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        return mapper;
    }

    /** Jackson's own reading of the annotations, less every way of accepting unknown fields. */
    private static final class StrictIntrospector extends JacksonAnnotationIntrospector {
        @Override
        public Boolean hasAnySetter(Annotated a) {
            return Boolean.FALSE;
        }

        @Override
        public JsonIgnoreProperties.Value findPropertyIgnoralByName(MapperConfig<?> config, Annotated a) {
            return super.findPropertyIgnoralByName(config, a).withoutIgnoreUnknown();
        }
    }
}
