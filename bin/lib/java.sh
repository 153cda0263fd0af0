# Finds a JDK 21 or newer: $JAVA_HOME if set, else java on PATH. Sets JAVA and exports JAVA_HOME for ./mvnw.
if [ -n "$JAVA_HOME" ]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=$(command -v java || true); fi
if [ -z "$JAVA" ] || [ ! -x "$JAVA" ]; then
  echo "agentbus: no Java found. Install a JDK 21 or newer and set JAVA_HOME." >&2; exit 1
fi
java_major=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
if [ -z "$java_major" ] || [ "$java_major" -lt 21 ]; then
  echo "agentbus: $JAVA is Java ${java_major:-unknown}; Agentbus needs 21 or newer. Set JAVA_HOME to a newer JDK." >&2
  exit 1
fi
if [ -z "$JAVA_HOME" ]; then JAVA_HOME=$(cd "$(dirname "$JAVA")/.." && pwd); fi
export JAVA_HOME
