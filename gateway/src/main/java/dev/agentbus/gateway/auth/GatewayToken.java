package dev.agentbus.gateway.auth;

import dev.agentbus.eventbus.DataDir;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The one bearer token of this gateway (teams auth comes later). Taken from the settings ({@link GatewaySettings}:
 * {@code AGENTBUS_GATEWAY_TOKEN}, else {@code AGENTBUS_TOKEN}); when neither is set, generated once, stored in
 * {@code <data dir>/gateway-token} readable only by its owner, and printed, so it stays the same across restarts and
 * the CLI on the same machine finds it.
 */
@Singleton
public class GatewayToken {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayToken.class);

    private final byte[] token;
    private final String userId;

    public GatewayToken(GatewaySettings settings) {
        String t = settings.configuredToken();
        if (t.isBlank()) {
            t = loadOrCreate(DataDir.of(settings.dataDir()).resolve("gateway-token"));
        }
        this.token = t.trim().getBytes(StandardCharsets.UTF_8);
        this.userId = settings.user();
    }

    /** Constant-time comparison, so response timing does not reveal how much of a guess was right. */
    public boolean matches(String presented) {
        return presented != null
                && MessageDigest.isEqual(token, presented.trim().getBytes(StandardCharsets.UTF_8));
    }

    /** The user every request with this token acts as. */
    public String userId() {
        return userId;
    }

    public String value() {
        return new String(token, StandardCharsets.UTF_8);
    }

    private static String loadOrCreate(Path file) {
        try {
            if (Files.exists(file)) {
                return Files.readString(file).trim();
            }
            Files.createDirectories(file.getParent());
            byte[] bytes = new byte[24];
            new SecureRandom().nextBytes(bytes);
            String t = HexFormat.of().formatHex(bytes);
            Path tmp = file.resolveSibling("gateway-token.tmp");
            Files.writeString(tmp, t + "\n", StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // best effort on non-POSIX file systems
            }
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            LOG.warn("No AGENTBUS_TOKEN set: generated a gateway token and saved it in {}\n\n    AGENTBUS_TOKEN={}\n",
                    file, t);
            return t;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or create the gateway token file " + file + ": "
                    + e.getMessage(), e);
        }
    }
}
