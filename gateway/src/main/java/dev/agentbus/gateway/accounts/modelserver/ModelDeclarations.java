package dev.agentbus.gateway.accounts.modelserver;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.util.Arrays;

/**
 * What the installation says about its models' vision where their server says nothing: the orchestrator's
 * {@code agentbus.models.vision} and {@code agentbus.models.no-vision}, read here too so the model list shows what the
 * orchestrator will decide (docs/configuration.md#models-vision-and-reasoning).
 */
@ConfigurationProperties("agentbus.models")
record ModelDeclarations(@Bindable(defaultValue = "") String vision, @Bindable(defaultValue = "") String noVision) {

    ModelDeclarations {
        vision = vision == null ? "" : vision;
        noVision = noVision == null ? "" : noVision;
    }

    /** True, false, or null when the installation says nothing; the same rule as the orchestrator's. */
    Boolean vision(String model) {
        if (matches(noVision, model)) {
            return Boolean.FALSE;
        }
        return matches(vision, model) ? Boolean.TRUE : null;
    }

    private static boolean matches(String list, String model) {
        return Arrays.stream(list.split(",")).map(String::strip).filter(n -> !n.isEmpty())
                .anyMatch(n -> n.equals("*") || n.equals(model)
                        || n.endsWith("*") && model.startsWith(n.substring(0, n.length() - 1)));
    }
}
