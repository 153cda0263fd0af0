package dev.agentbus.gateway.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which reverse proxies may tell the gateway who the client is ({@code agentbus.auth.trusted-proxies}): addresses
 * or CIDR ranges, comma-separated. A request from one of them has its client address taken from
 * {@code X-Forwarded-For}: the right-most entry that is not itself a trusted proxy, because every proxy appends the
 * address it saw, and anything to the left of the first untrusted hop was written by the client and may be forged.
 * A request from any other address keeps its connection's address, whatever headers it sends. Empty (the default):
 * no header is trusted.
 *
 * <p>Pure: the addresses are parsed once, no DNS lookups (only literal addresses are accepted).
 */
final class TrustedProxies {
    private record Range(byte[] network, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int whole = prefix / 8;
            for (int i = 0; i < whole; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[whole] & mask) == (network[whole] & mask);
        }
    }

    private final List<Range> ranges;

    private TrustedProxies(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    public static TrustedProxies none() {
        return new TrustedProxies(List.of());
    }

    /**
     * @param spec comma-separated IPv4/IPv6 addresses or CIDR ranges ({@code 10.0.0.0/8}, {@code ::1}); blank: none
     * @throws IllegalArgumentException naming the entry that is not an address or range
     */
    public static TrustedProxies parse(String spec) {
        List<Range> ranges = new ArrayList<>();
        if (spec != null) {
            for (String raw : spec.split(",")) {
                String entry = raw.strip();
                if (entry.isEmpty()) {
                    continue;
                }
                int slash = entry.indexOf('/');
                byte[] address = literal(slash < 0 ? entry : entry.substring(0, slash));
                if (address == null) {
                    throw new IllegalArgumentException("agentbus.auth.trusted-proxies: '" + entry
                            + "' is not an IP address or CIDR range (host names are not accepted)");
                }
                int prefix = address.length * 8;
                if (slash >= 0) {
                    try {
                        prefix = Integer.parseInt(entry.substring(slash + 1));
                    } catch (NumberFormatException e) {
                        prefix = -1;
                    }
                    if (prefix < 0 || prefix > address.length * 8) {
                        throw new IllegalArgumentException("agentbus.auth.trusted-proxies: '" + entry
                                + "' has a bad prefix length");
                    }
                }
                ranges.add(new Range(address, prefix));
            }
        }
        return new TrustedProxies(ranges);
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** Whether the address (a literal) is one of the trusted proxies. */
    public boolean trusts(String address) {
        byte[] bytes = literal(address);
        return bytes != null && ranges.stream().anyMatch(r -> r.contains(bytes));
    }

    /**
     * The client's address for a request that came from {@code remote} with these {@code X-Forwarded-For} headers
     * (each a comma-separated list, in the order received).
     */
    public String clientAddress(String remote, List<String> forwardedFor) {
        if (!trusts(remote) || forwardedFor == null || forwardedFor.isEmpty()) {
            return remote;
        }
        List<String> hops = new ArrayList<>();
        for (String header : forwardedFor) {
            for (String hop : header.split(",")) {
                if (!hop.isBlank()) {
                    hops.add(hop.strip());
                }
            }
        }
        String client = remote;
        for (int i = hops.size() - 1; i >= 0; i--) {
            String hop = hops.get(i);
            if (literal(hop) == null) {
                // Garbage where an address should be: stop at the last hop we could vouch for.
                return client;
            }
            client = hop;
            if (!trusts(hop)) {
                return hop;
            }
        }
        return client;
    }

    /** The bytes of a literal IPv4 or IPv6 address, or null; never a DNS lookup. */
    static byte[] literal(String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip();
        if (t.startsWith("[") && t.endsWith("]")) {
            t = t.substring(1, t.length() - 1);
        }
        boolean v4 = t.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = t.contains(":") && t.matches("[0-9A-Fa-f:.]+(%[A-Za-z0-9]+)?");
        if (!v4 && !v6) {
            return null;
        }
        if (v4) {
            for (String part : t.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        }
        try {
            byte[] bytes = InetAddress.getByName(t).getAddress();
            // An IPv4-mapped IPv6 address comes back as IPv4 from getByName already.
            return bytes;
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
