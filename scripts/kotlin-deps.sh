#!/usr/bin/env bash
# kotlin-deps.sh fetches the pinned jars of the Kotlin JVM tests of
# gen/emit/kotlin (scripts/kotlin-deps/pom.xml: kotlin-stdlib,
# kotlinx-serialization-json, JUnit, Robolectric, android-all) from Maven
# Central with mvn into .cache/m2 at the repository root (git-ignored), and
# prints the path of a directory that names them:
#
#   compile.classpath  the jars kotlinc compiles against and java runs the
#                      tests with: android-all (the real Android framework;
#                      Robolectric also reads its classes from the class
#                      path, while its sandbox loads the instrumented copy),
#                      kotlin-stdlib, kotlinx, JUnit and Robolectric;
#   android-all.dir    the folder holding android-all-instrumented, for
#                      Robolectric's offline mode (robolectric.dependency.dir).
#
# It does nothing but print the path when that directory is complete for the
# current pom. Java 17 and Maven must be on the PATH.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pom="$root/scripts/kotlin-deps/pom.xml"
key="$(sha256sum "$pom" | cut -c1-16)"
dest="$root/.cache/kotlin-deps/$key"
repo="$root/.cache/m2"

if [ -f "$dest/done" ]; then
	echo "$dest"
	exit 0
fi

mkdir -p "$root/.cache/kotlin-deps"
partial="$(mktemp -d "$dest.partial.XXXXXX")"
trap 'rm -rf "$partial"' EXIT

mvn_cp() { # mvn_cp OUTPUT ARGS...: one dependency:build-classpath run.
	local out="$1"
	shift
	mvn -B -q -Dstyle.color=never -f "$pom" -Dmaven.repo.local="$repo" dependency:build-classpath \
		-Dmdep.outputFile="$out" -Dmdep.pathSeparator=: "$@" >&2 # stdout is the path alone
}

mvn_cp "$partial/run.raw" -DincludeScope=runtime -DexcludeArtifactIds=android-all-instrumented
mvn_cp "$partial/android-all" -DincludeScope=provided -DincludeArtifactIds=android-all
mvn_cp "$partial/instrumented" -DincludeArtifactIds=android-all-instrumented

# An .aar (androidx.test:monitor, which Robolectric loads) is a zip holding
# classes.jar; the class path takes that jar.
run=""
IFS=: read -r -a jars <"$partial/run.raw" || true # no final newline
for jar in "${jars[@]}"; do
	if [ "${jar%.aar}" != "$jar" ]; then
		out="$partial/aar/$(basename "${jar%.aar}").jar"
		mkdir -p "$partial/aar"
		unzip -p "$jar" classes.jar >"$out"
		jar="$dest/aar/$(basename "$out")"
	fi
	run="${run:+$run:}$jar"
done
printf '%s:%s\n' "$(cat "$partial/android-all")" "$run" >"$partial/compile.classpath"
dirname "$(cat "$partial/instrumented")" >"$partial/android-all.dir"
rm -f "$partial/run.raw" "$partial/android-all" "$partial/instrumented"
touch "$partial/done"
# Another run may have finished first; its copy is as good as ours.
mv -T "$partial" "$dest" 2>/dev/null || rm -rf "$partial"
trap - EXIT
echo "$dest"
