package dev.agentbus.eventbus.outgoing;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the operator opens for URLs that users choose ({@code agentbus.outgoing.allow}): comma-separated entries, each
 * a host name or address ({@code llm.lan}, {@code 10.0.0.5}, {@code ::1}), the same with a port ({@code llm.lan:1234},
 * {@code [::1]:8080}) or a network in CIDR notation ({@code 10.0.0.0/8}, {@code fd00::/8}). An entry without a port
 * opens every port; a host name opens every address it resolves to, so only name hosts you control.
 */
final class AllowList {
    /** One entry: a host name, or an address with a prefix length (32 or 128 for a single address); port 0 = any. */
    private record Entry(String host, byte[] network, int prefix, int port) {
        boolean matches(String urlHost, int urlPort, InetAddress address) {
            if (port != 0 && port != urlPort) {
                return false;
            }
            if (host != null) {
                return host.equals(urlHost);
            }
            byte[] a = address.getAddress();
            if (a.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((a[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    static final AllowList NONE = new AllowList(List.of());

    private final List<Entry> entries;

    private AllowList(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Parses the setting; a wrong entry is an {@link IllegalArgumentException} naming it: the service stops. */
    static AllowList parse(String setting) {
        if (setting == null || setting.isBlank()) {
            return NONE;
        }
        List<Entry> entries = new ArrayList<>();
        for (String raw : setting.split(",")) {
            String e = raw.strip().toLowerCase(Locale.ROOT);
            if (!e.isEmpty()) {
                entries.add(entry(e));
            }
        }
        return new AllowList(entries);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Whether the operator opened {@code address}, reached as {@code host:port} (the host as the URL writes it). */
    boolean allows(String host, int port, InetAddress address) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        for (Entry e : entries) {
            if (e.matches(h, port, address)) {
                return true;
            }
        }
        return false;
    }

    private static Entry entry(String e) {
        String what = "agentbus.outgoing.allow: '" + e + "' is not a host, host:port or CIDR network";
        int slash = e.indexOf('/');
        if (slash >= 0) {
            byte[] network = literal(e.substring(0, slash), what);
            int prefix;
            try {
                prefix = Integer.parseInt(e.substring(slash + 1));
            } catch (NumberFormatException nan) {
                throw new IllegalArgumentException(what);
            }
            if (network == null || prefix < 0 || prefix > network.length * 8) {
                throw new IllegalArgumentException(what);
            }
            return new Entry(null, network, prefix, 0);
        }
        String host = e;
        int port = 0;
        if (e.startsWith("[")) {
            int close = e.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException(what);
            }
            host = e.substring(1, close);
            String rest = e.substring(close + 1);
            if (!rest.isEmpty()) {
                port = port(rest.startsWith(":") ? rest.substring(1) : "x", what);
            }
        } else if (e.indexOf(':') >= 0 && e.indexOf(':') == e.lastIndexOf(':')) {
            host = e.substring(0, e.indexOf(':'));
            port = port(e.substring(e.indexOf(':') + 1), what);
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c) || c == '@' || c == '/')) {
            throw new IllegalArgumentException(what);
        }
        byte[] address = literal(host, what);
        return address == null ? new Entry(host, null, 0, port) : new Entry(null, address, address.length * 8, port);
    }

    /** The bytes of an IP address literal, or null for a host name (never resolved here: resolving is per request). */
    private static byte[] literal(String text, String what) {
        boolean v4 = text.matches("[0-9.]+") && text.chars().filter(c -> c == '.').count() == 3;
        boolean v6 = text.indexOf(':') >= 0;
        if (!v4 && !v6) {
            return null;
        }
        try {
            // getByName does not resolve a literal; it only parses it.
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException | SecurityException bad) {
            throw new IllegalArgumentException(what);
        }
    }

    private static int port(String text, String what) {
        try {
            int p = Integer.parseInt(text);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException nan) {
            // said below
        }
        throw new IllegalArgumentException(what);
    }

    @Override
    public String toString() {
        return "AllowList" + Arrays.toString(entries.stream().map(e -> e.host != null ? e.host : "net/" + e.prefix)
                .toArray());
    }
}
