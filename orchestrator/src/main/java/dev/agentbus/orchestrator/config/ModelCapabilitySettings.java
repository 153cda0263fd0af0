package dev.agentbus.orchestrator.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

import java.util.Arrays;
import java.util.List;

/**
 * What the installation says about its models where their server says nothing, and how reasoning controls are sent:
 * {@code agentbus.models.*} (environment: {@code AGENTBUS_MODELS_VISION}, {@code AGENTBUS_MODELS_NO_VISION},
 * {@code AGENTBUS_MODELS_THINKING_BUDGET_FIELD}, {@code AGENTBUS_MODELS_IMAGE_WAIT_SECONDS}). Checked when the
 * orchestrator starts; see docs/configuration.md#models.
 *
 * @param vision              comma-separated model names that take images where the server does not say (vLLM,
 *                            llama.cpp, a hosted API); a trailing {@code *} matches a prefix ({@code gpt-4o*}),
 *                            {@code *} alone every model
 * @param noVision            names that do not, the same way; a model in both lists is taken not to see. Where
 *                            the server says (LM Studio, Ollama), its word wins over both lists
 * @param thinkingBudgetField the request field a session's thinking budget is sent in (servers differ; none is
 *                            standard)
 * @param imageWaitSeconds    how long a model call waits for the sandbox-worker to read an attached image before it
 *                            is refused
 */
@ConfigurationProperties("agentbus.models")
public record ModelCapabilitySettings(
        @Bindable(defaultValue = "") String vision,
        @Bindable(defaultValue = "") String noVision,
        @Bindable(defaultValue = "max_thinking_tokens") String thinkingBudgetField,
        @Bindable(defaultValue = "30") int imageWaitSeconds) {

    public ModelCapabilitySettings {
        vision = vision == null ? "" : vision;
        noVision = noVision == null ? "" : noVision;
        if (thinkingBudgetField == null || !thinkingBudgetField.matches("[A-Za-z_][A-Za-z0-9_]{0,63}")) {
            throw new IllegalArgumentException("agentbus.models.thinking-budget-field must be a JSON field name "
                    + "such as max_thinking_tokens, not '" + thinkingBudgetField + "'");
        }
        if (imageWaitSeconds < 1) {
            throw new IllegalArgumentException("agentbus.models.image-wait-seconds must be at least 1, not "
                    + imageWaitSeconds);
        }
    }

    /** Whether the installation says {@code model} takes images: true, false, or null when it says nothing. */
    public Boolean declaresVision(String model) {
        if (matches(noVision, model)) {
            return Boolean.FALSE;
        }
        return matches(vision, model) ? Boolean.TRUE : null;
    }

    private static boolean matches(String list, String model) {
        List<String> names = Arrays.stream(list.split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList();
        for (String name : names) {
            if (name.equals("*") || name.equals(model)
                    || (name.endsWith("*") && model != null && model.startsWith(name.substring(0, name.length() - 1)))) {
                return true;
            }
        }
        return false;
    }
}
