package dev.agentbus.deploy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;

import java.util.List;
import java.util.Map;

/**
 * Decides whether NetworkPolicies let one pod of the namespace open a TCP connection to another, as the API
 * defines it: a direction is open when no policy of that type selects the pod, or when one of the rules of the
 * policies that select it allows the peer and port. Doubtful peers count as allowed (an ipBlock, which can hold pod
 * addresses; a namespace selector, whose namespace labels are unknown here), so "not allowed" is a safe answer.
 */
final class NetworkPolicies {
    private final List<NetworkPolicy> policies;

    NetworkPolicies(List<NetworkPolicy> policies) {
        this.policies = policies;
    }

    boolean allows(Map<String, String> from, Map<String, String> to, int port) {
        return egressAllows(from, to, port) && ingressAllows(from, to, port);
    }

    boolean egressAllows(Map<String, String> from, Map<String, String> to, int port) {
        List<NetworkPolicy> selecting = selecting(from, "Egress");
        return selecting.isEmpty() || selecting.stream().flatMap(p -> p.getSpec().getEgress().stream())
                .anyMatch(rule -> portMatches(rule.getPorts(), port) && peersMatch(rule.getTo(), to));
    }

    boolean ingressAllows(Map<String, String> from, Map<String, String> to, int port) {
        List<NetworkPolicy> selecting = selecting(to, "Ingress");
        return selecting.isEmpty() || selecting.stream().flatMap(p -> p.getSpec().getIngress().stream())
                .anyMatch(rule -> portMatches(rule.getPorts(), port) && peersMatch(rule.getFrom(), from));
    }

    private List<NetworkPolicy> selecting(Map<String, String> pod, String type) {
        return policies.stream().filter(p -> types(p).contains(type))
                .filter(p -> matches(p.getSpec().getPodSelector(), pod)).toList();
    }

    /** The policy's types; without any, Ingress, and Egress when it has egress rules (the API's default). */
    private static List<String> types(NetworkPolicy p) {
        List<String> types = p.getSpec().getPolicyTypes();
        if (types != null && !types.isEmpty()) {
            return types;
        }
        return p.getSpec().getEgress().isEmpty() ? List.of("Ingress") : List.of("Ingress", "Egress");
    }

    private static boolean portMatches(List<NetworkPolicyPort> ports, int port) {
        return ports.isEmpty() || ports.stream().anyMatch(p -> !"UDP".equals(p.getProtocol()) && (p.getPort() == null
                || (p.getPort().getIntVal() != null && p.getPort().getIntVal() == port)));
    }

    private static boolean peersMatch(List<NetworkPolicyPeer> peers, Map<String, String> pod) {
        return peers.isEmpty() || peers.stream().anyMatch(peer -> peer.getIpBlock() != null
                || (peer.getPodSelector() == null && peer.getNamespaceSelector() != null)
                || (peer.getPodSelector() != null && matches(peer.getPodSelector(), pod)));
    }

    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        if (selector.getMatchLabels() != null && !selector.getMatchLabels().entrySet().stream()
                .allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
            return false;
        }
        for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
            String value = labels.get(r.getKey());
            boolean ok = switch (r.getOperator()) {
                case "In" -> value != null && r.getValues().contains(value);
                case "NotIn" -> value == null || !r.getValues().contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new AssertionError("unknown selector operator " + r.getOperator());
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
