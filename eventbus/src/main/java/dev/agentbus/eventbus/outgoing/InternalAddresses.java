package dev.agentbus.eventbus.outgoing;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Which addresses are internal: the ranges a URL chosen by a user must not reach unless the operator allows them
 * ({@link AllowList}). A user's model server, MCP server or webhook on one of these would let them probe the
 * installation's own network from inside it: the gateway, Kafka, PostgreSQL, a cloud's metadata service.
 */
final class InternalAddresses {
    private InternalAddresses() {
    }

    /** Why {@code address} is internal (e.g. "loopback"), or empty for a public address. */
    static Optional<String> reason(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return Optional.of("unspecified");
        }
        if (address.isLoopbackAddress()) {
            return Optional.of("loopback");
        }
        if (address.isLinkLocalAddress()) {
            return Optional.of("link-local (where cloud metadata services answer)");
        }
        if (address.isSiteLocalAddress()) {
            return Optional.of("private");
        }
        if (address.isMulticastAddress()) {
            return Optional.of("multicast");
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return v4(b);
        }
        if (address instanceof Inet6Address) {
            int first = b[0] & 0xff;
            if ((first & 0xfe) == 0xfc) {
                return Optional.of("private (IPv6 unique local)");
            }
            // An IPv4 address inside IPv6: compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) or 6to4 (2002:ab:cd::):
            // the IPv4 address is where the packets end up.
            if (allZero(b, 0, 12) || (b[0] == 0x00 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
                    && allZero(b, 4, 12))) {
                return embedded(Arrays.copyOfRange(b, 12, 16));
            }
            if (first == 0x20 && b[1] == 0x02) {
                return embedded(Arrays.copyOfRange(b, 2, 6));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> v4(byte[] b) {
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if (first == 0) {
            return Optional.of("unspecified (0.0.0.0/8)");
        }
        if (first == 100 && (second & 0xc0) == 64) {
            return Optional.of("private (carrier-grade NAT, 100.64.0.0/10)");
        }
        if (first == 192 && second == 0 && (b[2] & 0xff) == 0) {
            return Optional.of("reserved (192.0.0.0/24)");
        }
        if (first == 198 && (second & 0xfe) == 18) {
            return Optional.of("reserved (benchmarking, 198.18.0.0/15)");
        }
        if (first >= 240) {
            return Optional.of("reserved or broadcast (240.0.0.0/4)");
        }
        return Optional.empty();
    }

    private static Optional<String> embedded(byte[] v4) {
        try {
            return reason(InetAddress.getByAddress(v4));
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
