#!/usr/bin/env bash
# Assembles, without a Docker daemon and without pulling any base image, the part of the gateway's
# image that is not the application: a jlinked JRE at /opt/java and every shared library it and the
# native code inside the application's jars need, copied from this build machine (found with ldd).
#
#   assemble-runtime.sh JAVA_HOME MODULES CLASSPATH_FILE OUT_DIR
#
# JAVA_HOME       the JDK to jlink (needs its jmods/ directory)
# MODULES         comma-separated modules for jlink --add-modules
# CLASSPATH_FILE  the image's runtime classpath (one line, ':'-separated), to find native libraries in jars
# OUT_DIR         written from scratch: OUT_DIR/opt/java, OUT_DIR/lib..., OUT_DIR/tmp,
#                 OUT_DIR/var/lib/privacy-gateway, OUT_DIR/usr/share/doc/privacy-gateway/native-libraries.txt
#
# Run by the image module's build (exec-maven-plugin, phase prepare-package). When OUT_DIR was already
# built from the same JDK, modules, jars and script (OUT_DIR.stamp), it is kept as it is.
set -euo pipefail

java_home=$1
modules=$2
classpath_file=$3
out=$4

die() { echo "assemble-runtime: $*" >&2; exit 1; }

[ "$(uname -s)" = Linux ] || die "builds a Linux image from a Linux machine's libraries; this is $(uname -s)"
arch=$(uname -m)
[ "$arch" = x86_64 ] || die "only x86_64 is supported (the library paths below are x86_64's); this is $arch"
jlink=$java_home/bin/jlink
[ -x "$jlink" ] || jlink=$(dirname "$java_home")/bin/jlink   # a JRE-style java.home inside a JDK
[ -x "$jlink" ] || die "no jlink in $java_home (a JDK is needed, not a JRE)"
jmods=$(dirname "$jlink")/../jmods
[ -d "$jmods" ] || die "no jmods directory next to $jlink (on Debian: apt-get install openjdk-17-jdk-headless)"
command -v ldd >/dev/null || die "ldd is missing"
[ -f "$classpath_file" ] || die "no classpath file $classpath_file"

classpath=$(cat "$classpath_file")
stamp="$("$java_home/bin/java" -version 2>&1 | head -1) | $modules | $(echo "$classpath" | tr ':' '\n' | xargs -r ls -l --time-style=+%s 2>/dev/null | awk '{print $5, $6, $7}' | sha256sum | cut -c1-16) | $(sha256sum "$0" | cut -c1-16)"
if [ -f "$out.stamp" ] && [ -d "$out" ] && [ "$(cat "$out.stamp")" = "$stamp" ]; then
    echo "assemble-runtime: $out is up to date"
    exit 0
fi

rm -rf "$out" "$out.stamp"
mkdir -p "$out/opt" "$out/tmp" "$out/var/lib/privacy-gateway" "$out/usr/share/doc/privacy-gateway"

echo "assemble-runtime: jlink $modules"
"$jlink" --module-path "$jmods" --add-modules "$modules" --output "$out/opt/java" \
    --strip-debug --no-header-files --no-man-pages --compress=2 2>&1 | grep -v "^Warning: The 2 argument for --compress is deprecated" || true
[ -x "$out/opt/java/bin/java" ] || die "jlink did not produce $out/opt/java/bin/java"

# Debian's JDK links lib/security/cacerts to /etc/ssl/certs/java/cacerts (ca-certificates-java); take the
# real file so that TLS to brokers and registries trusts the usual public roots.
for c in /etc/ssl/certs/java/cacerts "$java_home/lib/security/cacerts"; do
    if [ -f "$c" ] && [ -s "$c" ]; then
        cp -L "$c" "$out/opt/java/lib/security/cacerts"
        break
    fi
done

# Native code shipped inside the jars (RocksDB, Snappy, zstd, LZ4 ...): their Linux x86_64 glibc builds,
# extracted only to be inspected by ldd (the JVM extracts them to /tmp at run time).
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
IFS=: read -r -a jars <<< "$classpath"
for jar in "${jars[@]}"; do
    case "$jar" in *.jar) ;; *) continue ;; esac
    jar=$(readlink -f "$jar")
    entries=$("$java_home/bin/jar" tf "$jar" | grep -E '\.so$' \
        | grep -iE '(linux|^[^/]*\.so$)' | grep -iE '(x86_64|amd64|linux64|^[^/]*linux[^/]*\.so$)' \
        | grep -viE 'musl|aarch64|arm|ppc|s390|riscv|loongarch|/x86/|linux32|i386' || true)
    [ -n "$entries" ] || continue
    d="$probe/$(basename "$jar")"
    mkdir -p "$d"
    (cd "$d" && "$java_home/bin/jar" xf "$jar" $entries)
done

# Every ELF file whose dependencies must resolve inside the image.
mapfile -t elves < <( { find "$out/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' -o -name jspawnhelper -o -name jexec \);
                        find "$probe" -type f -name '*.so'; } | sort)
declare -A libs=()
for f in "${elves[@]}"; do
    head -c 4 "$f" | grep -q ELF || continue
    while IFS= read -r line; do
        case "$line" in
            *"=> not found"*)
                name=$(echo "$line" | awk '{print $1}')
                # libjvm.so is found at run time through the launcher (lib/server), not the search path.
                [ "$name" = libjvm.so ] && continue
                die "$f needs $name, which this machine does not have";;
            *"=>"*/*)
                p=$(echo "$line" | sed -E 's/.*=> ([^ ]+) .*/\1/');;
            */ld-linux*)
                p=$(echo "$line" | awk '{print $1}');;
            *) continue;;
        esac
        case "$p" in "$out"/*|"$probe"/*) continue;; esac
        libs["$p"]=1
    done < <(ldd "$f" 2>/dev/null || true)
done

{
    echo "# Shared libraries copied from the build machine into the image, with the Debian package that"
    echo "# provides each (dpkg -S), found by ldd over the JRE and the native libraries inside these jars:"
    (cd "$probe" && find . -type f -name '*.so' | sed 's#^\./#\#   #' | sort)
    for p in $(printf '%s\n' "${!libs[@]}" | sort); do
        mkdir -p "$out$(dirname "$p")"
        cp -L "$p" "$out$p"
        pkg=$(dpkg -S "$(readlink -f "$p")" 2>/dev/null | head -1 | cut -d: -f1 || true)
        [ -z "$pkg" ] && pkg=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1 || true)
        ver=$( [ -n "$pkg" ] && dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
        echo "$p ${pkg:-unknown} ${ver:-}"
    done
} > "$out/usr/share/doc/privacy-gateway/native-libraries.txt"
[ -f "$out/lib64/ld-linux-x86-64.so.2" ] || die "the dynamic loader /lib64/ld-linux-x86-64.so.2 was not found by ldd"

echo "assemble-runtime: $(du -sh "$out/opt/java" | cut -f1) JRE, ${#libs[@]} shared libraries: $(printf '%s ' "${!libs[@]}" | xargs -n1 basename | sort | tr '\n' ' ')"
echo "$stamp" > "$out.stamp"
