package dev.agentbus.modelclient;

import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingRefused;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP side of talking to one model server: its URL and API key, one time limit per attempt
 * ({@link ModelSettings#timeout()}: connect, first byte and reading the body to its end), and retries as
 * {@link RetryPolicy} says. Knows nothing of chat completions, so a change in how requests travel (a header, a
 * proxy, a time-out) stays here, and a change in what they say stays out.
 *
 * <p>A call is only retried before its reply's first byte: what a caller reads from a {@link ReplyBody} has been
 * passed on, so a stream that breaks half way fails.
 *
 * <p>A server a user chose ({@code PUT /api/v1/me/model}) is checked against the {@link OutgoingPolicy} before every
 * attempt, and its error answers are shown as their status and a fixed reason, never their body. The operator's
 * server ({@code policy} null) is neither checked nor hidden. Every request carries the policy's hop marker, and
 * redirects are never followed (the JDK client's default), so none leads past the check.
 */
final class ModelServerConnection implements AutoCloseable {
    private final ModelSettings settings;
    private final HttpClient http;
    private final CallFailures failures;
    /** The rule for a server a user chose; null for the operator's own. */
    private final OutgoingPolicy policy;

    ModelServerConnection(ModelSettings settings, OutgoingPolicy policy) {
        this.settings = settings;
        this.policy = policy;
        // HTTP/1.1: local model servers speak it, and an h2c upgrade attempt confuses some of them.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.timeout()).build();
        this.failures = new CallFailures(settings, policy != null);
    }

    /** Whether the server may be asked at all now: the operator's always, a user's while the policy allows it. */
    boolean permitted() {
        return policy == null || policy.allows(settings.baseUrl());
    }

    /** The client the probes share, so they reuse its connections. */
    HttpClient http() {
        return http;
    }

    CallFailures failures() {
        return failures;
    }

    /** A request to {@code path} under the base URL, with the attempt's time limit and the API key if there is one. */
    HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(settings.baseUrl() + path))
                .timeout(settings.timeout()).header(OutgoingPolicy.HOP_HEADER, OutgoingPolicy.HOP_VALUE);
        if (!settings.apiKey().isBlank()) {
            b.header("Authorization", "Bearer " + settings.apiKey());
        }
        return b;
    }

    /**
     * Sends with retries; answers the first 2xx reply, or fails with the server's words (for a user's server: its
     * status and a fixed reason).
     */
    ReplyBody send(String what, HttpRequest.Builder builder) throws ModelCallException {
        HttpRequest request = builder.build();
        int retries = settings.maxRetries();
        for (int attempt = 0; ; attempt++) {
            boolean last = attempt >= retries;
            if (policy != null) {
                try {
                    policy.check(request.uri());
                } catch (OutgoingRefused e) {
                    if (e.unresolved() && !last) {
                        // A name that does not resolve may be a passing DNS failure: tried again, as a connection is.
                        RetryPolicy.pause(RetryPolicy.backoff(attempt, null));
                        continue;
                    }
                    throw new ModelCallException(failures.server() + " is refused: " + e.getMessage()
                            + (e.unresolved() ? failures.retried() : ""), e);
                }
            }
            HttpResponse<InputStream> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ModelCallException(failures.server() + ": the " + what + " was interrupted", e);
            } catch (IOException e) {
                if (!last) {
                    RetryPolicy.pause(RetryPolicy.backoff(attempt, null));
                    continue;
                }
                throw new ModelCallException(failures.server() + " did not answer the " + what + ": "
                        + (e instanceof HttpTimeoutException && !(e instanceof HttpConnectTimeoutException)
                        ? failures.timeoutText(e) : failures.describeIo(e)) + failures.retried(), e);
            }
            InputStream body = response.body();
            int status = response.statusCode();
            if (status / 100 == 2) {
                return ReplyBody.within(settings.timeout(), body, what, failures);
            }
            String error;
            try (body) {
                error = failures.errorWords(status, new String(body.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                error = failures.errorWords(status, null);
            }
            boolean retryable = RetryPolicy.retryable(status);
            if (retryable && !last) {
                RetryPolicy.pause(RetryPolicy.backoff(attempt, response.headers().firstValue("Retry-After")
                        .orElse(null)));
                continue;
            }
            throw new ModelCallException(failures.server() + " answered the " + what + " with " + error
                    + (retryable ? failures.retried() : ""), status, null);
        }
    }

    @Override
    public void close() {
        http.close();
    }
}
