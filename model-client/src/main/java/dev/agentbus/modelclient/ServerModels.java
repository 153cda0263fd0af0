package dev.agentbus.modelclient;

import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the server says about its models, asked once and remembered: which model to use when none is configured,
 * the model's context window, and what each model can do. Apart from the calls themselves because these answers
 * are cached for the client's life (or asked again a while after the server said nothing), and the rules for that
 * change for other reasons than the chat completion's wire format. Thread-safe.
 */
final class ServerModels {
    private static final Logger LOG = LoggerFactory.getLogger(ServerModels.class);
    /** After the server said nothing, it is asked again this much later (a model may have been loaded meanwhile). */
    private static final Duration ASK_AGAIN_AFTER = Duration.ofMinutes(5);

    private final ModelSettings settings;
    private final ModelServerConnection server;
    private final Object modelLock = new Object();
    private volatile String resolvedModel;
    /** The context window as the server said, asked once; the time it was asked, for asking again after a miss. */
    private volatile Optional<ContextWindow> contextWindow;
    private volatile long contextWindowAskedAt;
    /** What each model can do, as the server said; a model it said nothing about is asked again after a while. */
    private final Map<String, ModelCapabilities> capabilities = new ConcurrentHashMap<>();
    private final Map<String, Long> capabilitiesAskedAt = new ConcurrentHashMap<>();

    ServerModels(ModelSettings settings, ModelServerConnection server) {
        this.settings = settings;
        this.server = server;
    }

    /** See {@link ModelClient#resolveModel()}. */
    String resolveModel() throws ModelCallException {
        if (!settings.model().isBlank()) {
            return settings.model();
        }
        String cached = resolvedModel;
        if (cached != null) {
            return cached;
        }
        synchronized (modelLock) {
            if (resolvedModel == null) {
                String what = "listing models";
                List<String> ids = new ArrayList<>();
                try (ReplyBody answer = server.send(what, server.request("/models").GET())) {
                    for (JsonNode m : ReplyJson.parse(answer.text(), what, server.failures()).path("data")) {
                        String id = m.path("id").asText("");
                        if (!id.isBlank()) {
                            ids.add(id);
                        }
                    }
                }
                if (ids.isEmpty()) {
                    throw new ModelCallException("model server at " + settings.baseUrl()
                            + " lists no models (GET /models): load a model there or configure a model name", null);
                }
                resolvedModel = ids.stream().filter(id -> !id.toLowerCase().contains("embed")).findFirst()
                        .orElse(ids.getFirst());
                LOG.info("no model configured; using '{}', the first model {} lists", resolvedModel, settings.baseUrl());
            }
            return resolvedModel;
        }
    }

    /** See {@link ModelClient#contextWindow()}. */
    Optional<ContextWindow> contextWindow() {
        Optional<ContextWindow> known = contextWindow;
        if (known != null && (known.isPresent()
                || System.nanoTime() - contextWindowAskedAt < ASK_AGAIN_AFTER.toNanos())) {
            return known;
        }
        if (!server.permitted()) {
            return Optional.empty();
        }
        String model;
        try {
            model = resolveModel();
        } catch (ModelCallException e) {
            model = settings.model();
        }
        Optional<ContextWindow> asked = new ContextWindowProbe(server.http(), settings.baseUrl(), settings.apiKey())
                .probe(model);
        asked.ifPresent(w -> LOG.info("context window of {} at {}: {} tokens ({})", settings.model(),
                settings.baseUrl(), w.tokens(), w.source()));
        contextWindowAskedAt = System.nanoTime();
        contextWindow = asked;
        return asked;
    }

    /** See {@link ModelClient#capabilities(String)}. */
    ModelCapabilities capabilities(String model) {
        ModelCapabilities known = capabilities.get(model);
        Long askedAt = capabilitiesAskedAt.get(model);
        if (known != null && (known.known() || System.nanoTime() - askedAt < ASK_AGAIN_AFTER.toNanos())) {
            return known;
        }
        if (!server.permitted()) {
            return ModelCapabilities.UNKNOWN;
        }
        ModelCapabilities asked = new CapabilityProbe(server.http(), settings.baseUrl(), settings.apiKey())
                .probe(model);
        if (asked.known()) {
            LOG.info("capabilities of {} at {}: {}", model, settings.baseUrl(), asked);
        }
        capabilitiesAskedAt.put(model, System.nanoTime());
        capabilities.put(model, asked);
        return asked;
    }
}
