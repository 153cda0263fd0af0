package dev.agentbus.sandbox.sandboxing;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Whose sandbox it is: a session of a user, or a pooled sandbox that belongs to nobody yet. The provider keeps one
 * running sandbox per key.
 *
 * @param userId    the user; empty for a pooled sandbox (no user id is empty)
 * @param sessionId the session; for a pooled sandbox, the name of its waiting directory
 */
record SandboxKey(String userId, String sessionId) {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String NOBODY = "";

    SandboxKey {
        if (userId == null || sessionId == null) {
            throw new IllegalArgumentException("a sandbox key needs a user and a session");
        }
    }

    /** The key of the spec's session. */
    static SandboxKey of(SandboxSpec spec) throws SandboxException {
        if (spec == null || spec.userId() == null || spec.sessionId() == null || spec.userId().isEmpty()) {
            throw new SandboxException("a sandbox needs a user, a session and a workspace");
        }
        return new SandboxKey(spec.userId(), spec.sessionId());
    }

    /** A pooled sandbox, waiting in the directory of this name. */
    static SandboxKey pooled(String directoryName) {
        return new SandboxKey(NOBODY, directoryName);
    }

    boolean isPooled() {
        return userId.isEmpty();
    }

    /** {@code user/session} (or {@code pool/<directory>}): for logs and the container's label. */
    @Override
    public String toString() {
        return (isPooled() ? "pool" : userId) + "/" + sessionId;
    }

    /** A container or control-group name for this key, unique (a random suffix), readable and name-safe. */
    String uniqueName() {
        return uniqueName(isPooled() ? "-pool-" + sessionId : userId + "-" + sessionId);
    }

    /**
     * {@code agentbus-<readable>-<random>}: {@code readable} cut to 60 name-safe characters (ids are checked by
     * Workspaces; this only keeps the engine's and the kernel's naming rules).
     */
    static String uniqueName(String readable) {
        String safe = readable.replaceAll("[^A-Za-z0-9_.-]", "_");
        byte[] token = new byte[4];
        RANDOM.nextBytes(token);
        return "agentbus-" + (safe.length() > 60 ? safe.substring(0, 60) : safe) + "-"
                + HexFormat.of().formatHex(token);
    }
}
