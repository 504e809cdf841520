# powershell completion for opm                                  -*- shell-script -*-
# Written by "opm completion powershell"; regenerate it instead of editing it.

Register-ArgumentCompleter -Native -CommandName 'opm' -ScriptBlock {
    param($WordToComplete, $CommandAst, $CursorPosition)

    # Per command: name, tooltip, name, tooltip, ...
    $subcommands = @{
        'opm' = @(
            'alpha', 'Run an alpha subcommand'
            'completion', 'Generate the autocompletion script for the specified shell'
            'generate', 'Generate various artifacts for file-based catalogs'
            'help', 'Help about any command'
            'index', 'generate operator index container images'
            'init', 'Generate an olm.package declarative config blob'
            'migrate', 'Migrate a sqlite-based index image or database file to a file-based catalog'
            'registry', 'interact with operator-registry database'
            'render', 'Generate a stream of file-based catalog objects from catalogs and bundles'
            'serve', 'serve declarative configs'
            'validate', 'Validate the declarative index config'
            'version', 'Print the opm version'
        )
        'opm alpha' = @(
            'bundle', 'Operator bundle commands'
            'cache', 'Inspect and prune opm''s image cache'
            'catalog', 'Build file-based catalog images'
            'convert-template', 'Convert existing FBC to a supported template type'
            'diff', 'Show what changed between two catalogs'
            'filter', 'Filter a file-based catalog to the packages, channels and versions a configuration names'
            'list', 'List contents of an index'
            'pin', 'Pin every bundle image and related image of a catalog to its digest'
            'render-graph', 'Generate mermaid-formatted view of upgrade graph of operators in an index'
            'render-template', 'Render a catalog template (auto-detects type from schema if TYPE not specified)'
        )
        'opm alpha bundle' = @(
            'build', 'Build operator bundle image'
            'extract', 'Extracts the data in a bundle directory via ConfigMap'
            'generate', 'Generate operator bundle metadata and Dockerfile'
            'unpack', 'Unpacks the content of an operator bundle'
        )
        'opm alpha cache' = @(
            'info', 'Show the cache''s size, entries and oldest entry'
            'prune', 'Remove cache entries not used for a while'
        )
        'opm alpha catalog' = @(
            'build', 'Build a catalog image without a container engine'
        )
        'opm alpha convert-template' = @(
            'basic', 'Generate a basic template from existing FBC'
            'substitutes', 'Generate a substitutes template from existing FBC'
        )
        'opm alpha list' = @(
            'bundles', 'List package bundles in an index'
            'channels', 'List package channels in an index'
            'images', 'List the images a catalog references'
            'packages', 'List packages in an index'
        )
        'opm completion' = @(
            'bash', 'Generate the autocompletion script for bash'
            'fish', 'Generate the autocompletion script for fish'
            'powershell', 'Generate the autocompletion script for powershell'
            'zsh', 'Generate the autocompletion script for zsh'
        )
        'opm generate' = @(
            'dockerfile', 'Generate a Dockerfile for a file-based catalog'
        )
        'opm index' = @(
            'add', 'Add operator bundles to an index.'
            'export', 'Export an operator from an index into the appregistry format'
            'prune', 'prune an index of all but specified packages'
            'prune-stranded', 'prune an index of stranded bundles'
            'rm', 'delete an entire operator from an index'
        )
        'opm registry' = @(
            'add', 'add operator bundle to operator registry DB'
            'prune', 'prune an operator registry DB of all but specified packages'
            'prune-stranded', 'prune an operator registry DB of stranded bundles'
            'rm', 'remove operator from operator registry DB'
            'serve', 'serve an operator-registry database'
        )
    }
    $flags = @{
        'opm' = @(
            '--help', 'help for opm'
            '-h', 'help for opm'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha' = @(
            '--help', 'help for alpha'
            '-h', 'help for alpha'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha bundle' = @(
            '--help', 'help for bundle'
            '-h', 'help for bundle'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha bundle build' = @(
            '--base-image', 'Use a custom image pullspec as the base bundle image'
            '--channels', 'The list of channels that bundle image belongs to(Required if `directory` is not pointing to a bundle in the nested bundle format)'
            '-c', 'The list of channels that bundle image belongs to(Required if `directory` is not pointing to a bundle in the nested bundle format)'
            '--default', 'The default channel for the bundle image'
            '-e', 'The default channel for the bundle image'
            '--directory', 'The directory where bundle manifests and metadata for a specific version are located'
            '-d', 'The directory where bundle manifests and metadata for a specific version are located'
            '--help', 'help for build'
            '-h', 'help for build'
            '--image-builder', 'Tool used to manage container images. One of: [docker, podman, buildah]'
            '-b', 'Tool used to manage container images. One of: [docker, podman, buildah]'
            '--output-dir', 'Optional output directory for operator manifests'
            '-u', 'Optional output directory for operator manifests'
            '--overwrite', 'To overwrite annotations.yaml locally if existed. By default, overwrite is set to `false`.'
            '-o', 'To overwrite annotations.yaml locally if existed. By default, overwrite is set to `false`.'
            '--package', 'The name of the package that bundle image belongs to (Required if `directory` is not pointing to a bundle in the nested bundle format)'
            '-p', 'The name of the package that bundle image belongs to (Required if `directory` is not pointing to a bundle in the nested bundle format)'
            '--tag', 'The image tag applied to the bundle image'
            '-t', 'The image tag applied to the bundle image'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha bundle extract' = @(
            '--configmapname', 'name of configmap to write bundle data'
            '-c', 'name of configmap to write bundle data'
            '--datalimit', 'maximum limit in bytes for total bundle data'
            '-l', 'maximum limit in bytes for total bundle data'
            '--debug', 'enable debug logging'
            '--gzip', 'enable gzip compression of configmap data'
            '-z', 'enable gzip compression of configmap data'
            '--help', 'help for extract'
            '-h', 'help for extract'
            '--kubeconfig', 'absolute path to kubeconfig file'
            '-k', 'absolute path to kubeconfig file'
            '--manifestsdir', 'path to directory containing manifests'
            '-m', 'path to directory containing manifests'
            '--namespace', 'namespace to write configmap data'
            '-n', 'namespace to write configmap data'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha bundle generate' = @(
            '--base-image', 'Use a custom image pullspec as the base bundle image'
            '--channels', 'The list of channels that bundle image belongs to(Required if `directory` is not pointing to a bundle in the nested bundle format)'
            '-c', 'The list of channels that bundle image belongs to(Required if `directory` is not pointing to a bundle in the nested bundle format)'
            '--default', 'The default channel for the bundle image'
            '-e', 'The default channel for the bundle image'
            '--directory', 'The directory where bundle manifests for a specific version are located.'
            '-d', 'The directory where bundle manifests for a specific version are located.'
            '--help', 'help for generate'
            '-h', 'help for generate'
            '--output-dir', 'Optional output directory for operator manifests'
            '-u', 'Optional output directory for operator manifests'
            '--package', 'The name of the package that bundle image belongs to (Required if `directory` is not pointing to a bundle in the nested bundle format)'
            '-p', 'The name of the package that bundle image belongs to (Required if `directory` is not pointing to a bundle in the nested bundle format)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha bundle unpack' = @(
            '--debug', 'enable debug log output'
            '-d', 'enable debug log output'
            '--help', 'help for unpack'
            '-h', 'help for unpack'
            '--out', 'directory in which to unpack operator bundle content'
            '-o', 'directory in which to unpack operator bundle content'
            '--root-ca', 'file path of a root CA to use when communicating with image registries'
            '-c', 'file path of a root CA to use when communicating with image registries'
            '--skip-tls-verify', 'disable TLS verification'
            '--skip-validation', 'disable bundle validation'
            '-v', 'disable bundle validation'
            '--use-http', 'use plain HTTP'
        )
        'opm alpha bundle validate' = @(
            '--help', 'help for validate'
            '-h', 'help for validate'
            '--image-builder', 'Tool used to pull and unpack bundle images. One of: [none, docker, podman]'
            '-b', 'Tool used to pull and unpack bundle images. One of: [none, docker, podman]'
            '--optional-validators', 'Specifies optional validations to be run. One or more of: [operatorhub, bundle-objects]'
            '-o', 'Specifies optional validations to be run. One or more of: [operatorhub, bundle-objects]'
            '--tag', 'The path of a registry to pull from, image name and its tag that present the bundle image (e.g. quay.io/test/test-operator:latest)'
            '-t', 'The path of a registry to pull from, image name and its tag that present the bundle image (e.g. quay.io/test/test-operator:latest)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha cache' = @(
            '--help', 'help for cache'
            '-h', 'help for cache'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha cache info' = @(
            '--help', 'help for info'
            '-h', 'help for info'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha cache prune' = @(
            '--all', 'remove every entry'
            '--help', 'help for prune'
            '-h', 'help for prune'
            '--older-than', 'remove entries not used for this long (720h, 30d)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha catalog' = @(
            '--help', 'help for catalog'
            '-h', 'help for catalog'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha catalog build' = @(
            '--base-image', 'Image base to use to build catalog.'
            '-i', 'Image base to use to build catalog.'
            '--extra-labels', 'Extra labels to include in the image. Labels should be of the form ''key=value''.'
            '-l', 'Extra labels to include in the image. Labels should be of the form ''key=value''.'
            '--help', 'help for build'
            '-h', 'help for build'
            '--platform', 'Build for this platform only (os/arch[/variant]) of a multi-platform base image.'
            '--tag', 'Where the image goes: a registry reference, oci:DIR[:TAG] or docker-archive:FILE.'
            '-t', 'Where the image goes: a registry reference, oci:DIR[:TAG] or docker-archive:FILE.'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha convert-template' = @(
            '--help', 'help for convert-template'
            '-h', 'help for convert-template'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha convert-template basic' = @(
            '--help', 'help for basic'
            '-h', 'help for basic'
            '--output', 'Output format (json|yaml)'
            '-o', 'Output format (json|yaml)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha convert-template substitutes' = @(
            '--help', 'help for substitutes'
            '-h', 'help for substitutes'
            '--output', 'Output format (json|yaml)'
            '-o', 'Output format (json|yaml)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha diff' = @(
            '--allow', 'upgrade rules to accept (upgrade-path, head-downgrade, default-channel, unannounced-removal)'
            '--check-upgrades', 'fail when the change would leave an installed operator without an update'
            '--help', 'help for diff'
            '-h', 'help for diff'
            '--output', 'Output format (text|markdown|json, or github|sarif|junit for the upgrade check)'
            '-o', 'Output format (text|markdown|json, or github|sarif|junit for the upgrade check)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha filter' = @(
            '--config', 'Path to the filter configuration (FilterConfiguration)'
            '-c', 'Path to the filter configuration (FilterConfiguration)'
            '--help', 'help for filter'
            '-h', 'help for filter'
            '--keep-heads-only', 'Keep only the head of each kept channel: the smallest installable catalog (of every package when no --config is given)'
            '--output', 'Output format of the filtered file-based catalog (json|yaml)'
            '-o', 'Output format of the filtered file-based catalog (json|yaml)'
            '--platform', 'Platform (os/arch[/variant]) to render from multi-platform images (default: linux and this machine''s architecture)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha list' = @(
            '--help', 'help for list'
            '-h', 'help for list'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha list bundles' = @(
            '--help', 'help for bundles'
            '-h', 'help for bundles'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha list channels' = @(
            '--help', 'help for channels'
            '-h', 'help for channels'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha list images' = @(
            '--help', 'help for images'
            '-h', 'help for images'
            '--output', 'Output format (text|json)'
            '-o', 'Output format (text|json)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha list packages' = @(
            '--help', 'help for packages'
            '-h', 'help for packages'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha pin' = @(
            '--help', 'help for pin'
            '-h', 'help for pin'
            '--output', 'Output format of the pinned file-based catalog (json|yaml)'
            '-o', 'Output format of the pinned file-based catalog (json|yaml)'
            '--platform', 'Platform (os/arch[/variant]) that multi-platform images must offer (default: linux and this machine''s architecture)'
            '--skip-unresolved', 'Keep references whose tag cannot be resolved as they are, with a warning'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha render-graph' = @(
            '--draw-v0-semantics', 'whether to indicate OLMv0 semantics in the output; default is to simply represent the upgrade graph'
            '--help', 'help for render-graph'
            '-h', 'help for render-graph'
            '--minimum-edge', 'the channel edge to be used as the lower bound of the set of edges composing the upgrade graph; default is to include all edges'
            '--package-name', 'a specific package name to filter output; default is to include all packages in reference'
            '-p', 'a specific package name to filter output; default is to include all packages in reference'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm alpha render-template' = @(
            '--help', 'help for render-template'
            '-h', 'help for render-template'
            '--migrate-level', 'Name of the last migration to run (default: none)'
            '--output', 'Output format (json|yaml|mermaid)'
            '-o', 'Output format (json|yaml|mermaid)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm completion' = @(
            '--help', 'help for completion'
            '-h', 'help for completion'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm completion bash' = @(
            '--help', 'help for bash'
            '-h', 'help for bash'
            '--no-descriptions', 'disable completion descriptions'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm completion fish' = @(
            '--help', 'help for fish'
            '-h', 'help for fish'
            '--no-descriptions', 'disable completion descriptions'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm completion powershell' = @(
            '--help', 'help for powershell'
            '-h', 'help for powershell'
            '--no-descriptions', 'disable completion descriptions'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm completion zsh' = @(
            '--help', 'help for zsh'
            '-h', 'help for zsh'
            '--no-descriptions', 'disable completion descriptions'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm generate' = @(
            '--help', 'help for generate'
            '-h', 'help for generate'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm generate dockerfile' = @(
            '--base-image', 'Image base to use to build catalog.'
            '-i', 'Image base to use to build catalog.'
            '--builder-image', 'Image to use as a build stage.'
            '-b', 'Image to use as a build stage.'
            '--extra-labels', 'Extra labels to include in the generated Dockerfile. Labels should be of the form ''key=value''.'
            '-l', 'Extra labels to include in the generated Dockerfile. Labels should be of the form ''key=value''.'
            '--help', 'help for dockerfile'
            '-h', 'help for dockerfile'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm index' = @(
            '--help', 'help for index'
            '-h', 'help for index'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm index add' = @(
            '--binary-image', 'container image for on-image `opm` command'
            '-i', 'container image for on-image `opm` command'
            '--build-tool', 'tool to build container images. One of: [docker, podman]. Defaults to podman. Overrides part of container-tool.'
            '-u', 'tool to build container images. One of: [docker, podman]. Defaults to podman. Overrides part of container-tool.'
            '--bundles', 'comma separated list of bundles to add'
            '-b', 'comma separated list of bundles to add'
            '--container-tool', 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
            '-c', 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
            '--from-index', 'previous index to add to'
            '-f', 'previous index to add to'
            '--generate', 'if enabled, just creates the dockerfile and saves it to local disk'
            '--help', 'help for add'
            '-h', 'help for add'
            '--mode', 'graph update mode that defines how channel graphs are updated. One of: [replaces, semver, semver-skippatch]'
            '--out-dockerfile', 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
            '-d', 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
            '--permissive', 'allow registry load errors'
            '--pull-tool', 'tool to pull container images. One of: [none, docker, podman]. Defaults to none. Overrides part of container-tool.'
            '-p', 'tool to pull container images. One of: [none, docker, podman]. Defaults to none. Overrides part of container-tool.'
            '--tag', 'custom tag for container image being built'
            '-t', 'custom tag for container image being built'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm index export' = @(
            '--container-tool', 'tool to interact with container images (save, build, etc.). One of: [none, docker, podman]'
            '-c', 'tool to interact with container images (save, build, etc.). One of: [none, docker, podman]'
            '--download-folder', 'directory where downloaded operator bundle(s) will be stored'
            '-f', 'directory where downloaded operator bundle(s) will be stored'
            '--help', 'help for export'
            '-h', 'help for export'
            '--index', 'index to get package from'
            '-i', 'index to get package from'
            '--package', 'comma separated list of packages to export'
            '-p', 'comma separated list of packages to export'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm index prune' = @(
            '--binary-image', 'container image for on-image `opm` command'
            '-i', 'container image for on-image `opm` command'
            '--container-tool', 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
            '-c', 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
            '--from-index', 'index to prune'
            '-f', 'index to prune'
            '--generate', 'if enabled, just creates the dockerfile and saves it to local disk'
            '--help', 'help for prune'
            '-h', 'help for prune'
            '--out-dockerfile', 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
            '-d', 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
            '--packages', 'comma separated list of packages to keep'
            '-p', 'comma separated list of packages to keep'
            '--permissive', 'allow registry load errors'
            '--tag', 'custom tag for container image being built'
            '-t', 'custom tag for container image being built'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm index prune-stranded' = @(
            '--binary-image', 'container image for on-image `opm` command'
            '-i', 'container image for on-image `opm` command'
            '--container-tool', 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
            '-c', 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
            '--from-index', 'index to prune'
            '-f', 'index to prune'
            '--generate', 'if enabled, just creates the dockerfile and saves it to local disk'
            '--help', 'help for prune-stranded'
            '-h', 'help for prune-stranded'
            '--out-dockerfile', 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
            '-d', 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
            '--tag', 'custom tag for container image being built'
            '-t', 'custom tag for container image being built'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm index rm' = @(
            '--binary-image', 'container image for on-image `opm` command'
            '-i', 'container image for on-image `opm` command'
            '--build-tool', 'tool to build container images. One of: [docker, podman]. Defaults to podman. Overrides part of container-tool.'
            '-u', 'tool to build container images. One of: [docker, podman]. Defaults to podman. Overrides part of container-tool.'
            '--container-tool', 'tool to interact with container images (save, build, etc.). One of: [none, docker, podman]'
            '-c', 'tool to interact with container images (save, build, etc.). One of: [none, docker, podman]'
            '--from-index', 'previous index to delete from'
            '-f', 'previous index to delete from'
            '--generate', 'if enabled, just creates the dockerfile and saves it to local disk'
            '--help', 'help for rm'
            '-h', 'help for rm'
            '--operators', 'comma separated list of operators to delete'
            '-o', 'comma separated list of operators to delete'
            '--out-dockerfile', 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
            '-d', 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
            '--permissive', 'allow registry load errors'
            '--pull-tool', 'tool to pull container images. One of: [none, docker, podman]. Defaults to none. Overrides part of container-tool.'
            '-p', 'tool to pull container images. One of: [none, docker, podman]. Defaults to none. Overrides part of container-tool.'
            '--tag', 'custom tag for container image being built'
            '-t', 'custom tag for container image being built'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm init' = @(
            '--default-channel', 'The channel that subscriptions will default to if unspecified'
            '-c', 'The channel that subscriptions will default to if unspecified'
            '--description', 'Path to the operator''s README.md (or other documentation)'
            '-d', 'Path to the operator''s README.md (or other documentation)'
            '--help', 'help for init'
            '-h', 'help for init'
            '--icon', 'Path to package''s icon'
            '-i', 'Path to package''s icon'
            '--output', 'Output format (json|yaml)'
            '-o', 'Output format (json|yaml)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm migrate' = @(
            '--help', 'help for migrate'
            '-h', 'help for migrate'
            '--migrate-level', 'Name of the last migration to run (default: none)'
            '--output', 'Output format (json|yaml)'
            '-o', 'Output format (json|yaml)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm registry' = @(
            '--help', 'help for registry'
            '-h', 'help for registry'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm registry add' = @(
            '--bundle-images', 'comma separated list of links to bundle image'
            '-b', 'comma separated list of links to bundle image'
            '--ca-file', 'the root certificates to use when --container-tool=none; see docker/podman docs for certificate loading instructions'
            '--container-tool', 'tool to interact with container images (save, build, etc.). One of: [none, docker, podman]'
            '-c', 'tool to interact with container images (save, build, etc.). One of: [none, docker, podman]'
            '--database', 'relative path to database file'
            '-d', 'relative path to database file'
            '--debug', 'enable debug logging'
            '--help', 'help for add'
            '-h', 'help for add'
            '--mode', 'graph update mode that defines how channel graphs are updated. One of: [replaces, semver, semver-skippatch]'
            '--permissive', 'allow registry load errors'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm registry prune' = @(
            '--database', 'relative path to database file'
            '-d', 'relative path to database file'
            '--debug', 'enable debug logging'
            '--help', 'help for prune'
            '-h', 'help for prune'
            '--packages', 'comma separated list of package names to be kept'
            '-p', 'comma separated list of package names to be kept'
            '--permissive', 'allow registry load errors'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm registry prune-stranded' = @(
            '--database', 'relative path to database file'
            '-d', 'relative path to database file'
            '--debug', 'enable debug logging'
            '--help', 'help for prune-stranded'
            '-h', 'help for prune-stranded'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm registry rm' = @(
            '--database', 'relative path to database file'
            '-d', 'relative path to database file'
            '--debug', 'enable debug logging'
            '--help', 'help for rm'
            '-h', 'help for rm'
            '--packages', 'comma separated list of package names to be deleted'
            '-o', 'comma separated list of package names to be deleted'
            '--permissive', 'allow registry load errors'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm registry serve' = @(
            '--database', 'relative path to sqlite db'
            '-d', 'relative path to sqlite db'
            '--debug', 'enable debug logging'
            '--help', 'help for serve'
            '-h', 'help for serve'
            '--port', 'port number to serve on'
            '-p', 'port number to serve on'
            '--skip-migrate', 'do  not attempt to migrate to the latest db revision when starting'
            '--termination-log', 'path to a container termination log file'
            '-t', 'path to a container termination log file'
            '--timeout-seconds', 'Timeout in seconds. This flag will be removed later.'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm render' = @(
            '--alpha-image-ref-template', '(ALPHA: This flag will be removed or renamed in a future release, potentially without notice) When bundle image reference information is unavailable, populate it with this template'
            '--help', 'help for render'
            '-h', 'help for render'
            '--migrate', 'Perform all available schema migrations on the rendered FBC'
            '--migrate-level', 'Name of the last migration to run (default: none)'
            '--output', 'Output format of the streamed file-based catalog objects (json|yaml)'
            '-o', 'Output format of the streamed file-based catalog objects (json|yaml)'
            '--platform', 'Platform (os/arch[/variant]) to render from multi-platform images (default: linux and this machine''s architecture)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm serve' = @(
            '--cache-dir', 'if set, sync and persist server cache directory'
            '--cache-enforce-integrity', 'exit with error if cache is not present or has been invalidated. (default: true when --cache-dir is set and --cache-only is false, false otherwise), '
            '--cache-only', 'sync the serve cache and exit without serving'
            '--debug', 'enable debug logging'
            '--help', 'help for serve'
            '-h', 'help for serve'
            '--port', 'port number to serve on'
            '-p', 'port number to serve on'
            '--pprof-addr', 'address of startup profiling endpoint (addr:port format)'
            '--pprof-capture-profiles', 'capture pprof CPU profiles'
            '--termination-log', 'path to a container termination log file'
            '-t', 'path to a container termination log file'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm validate' = @(
            '--help', 'help for validate'
            '-h', 'help for validate'
            '--output', 'Output format for validation results (json|yaml|github|sarif|junit)'
            '-o', 'Output format for validation results (json|yaml|github|sarif|junit)'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
        'opm version' = @(
            '--help', 'help for version'
            '-h', 'help for version'
            '--skip-tls-verify', 'skip TLS certificate verification for container image registries while pulling bundles'
            '--use-http', 'use plain HTTP for container image registries while pulling bundles'
        )
    }
    $valueFlags = @{
        'opm alpha bundle build' = @(
            '--base-image'
            '--channels'
            '-c'
            '--default'
            '-e'
            '--directory'
            '-d'
            '--image-builder'
            '-b'
            '--output-dir'
            '-u'
            '--package'
            '-p'
            '--tag'
            '-t'
        )
        'opm alpha bundle extract' = @(
            '--configmapname'
            '-c'
            '--datalimit'
            '-l'
            '--kubeconfig'
            '-k'
            '--manifestsdir'
            '-m'
            '--namespace'
            '-n'
        )
        'opm alpha bundle generate' = @(
            '--base-image'
            '--channels'
            '-c'
            '--default'
            '-e'
            '--directory'
            '-d'
            '--output-dir'
            '-u'
            '--package'
            '-p'
        )
        'opm alpha bundle unpack' = @(
            '--out'
            '-o'
            '--root-ca'
            '-c'
        )
        'opm alpha bundle validate' = @(
            '--image-builder'
            '-b'
            '--optional-validators'
            '-o'
            '--tag'
            '-t'
        )
        'opm alpha cache prune' = @(
            '--older-than'
        )
        'opm alpha catalog build' = @(
            '--base-image'
            '-i'
            '--extra-labels'
            '-l'
            '--platform'
            '--tag'
            '-t'
        )
        'opm alpha convert-template basic' = @(
            '--output'
            '-o'
        )
        'opm alpha convert-template substitutes' = @(
            '--output'
            '-o'
        )
        'opm alpha diff' = @(
            '--allow'
            '--output'
            '-o'
        )
        'opm alpha filter' = @(
            '--config'
            '-c'
            '--output'
            '-o'
            '--platform'
        )
        'opm alpha list images' = @(
            '--output'
            '-o'
        )
        'opm alpha pin' = @(
            '--output'
            '-o'
            '--platform'
        )
        'opm alpha render-graph' = @(
            '--minimum-edge'
            '--package-name'
            '-p'
        )
        'opm alpha render-template' = @(
            '--migrate-level'
            '--output'
            '-o'
        )
        'opm generate dockerfile' = @(
            '--base-image'
            '-i'
            '--builder-image'
            '-b'
            '--extra-labels'
            '-l'
        )
        'opm index add' = @(
            '--binary-image'
            '-i'
            '--build-tool'
            '-u'
            '--bundles'
            '-b'
            '--container-tool'
            '-c'
            '--from-index'
            '-f'
            '--mode'
            '--out-dockerfile'
            '-d'
            '--pull-tool'
            '-p'
            '--tag'
            '-t'
        )
        'opm index export' = @(
            '--container-tool'
            '-c'
            '--download-folder'
            '-f'
            '--index'
            '-i'
            '--package'
            '-p'
        )
        'opm index prune' = @(
            '--binary-image'
            '-i'
            '--container-tool'
            '-c'
            '--from-index'
            '-f'
            '--out-dockerfile'
            '-d'
            '--packages'
            '-p'
            '--tag'
            '-t'
        )
        'opm index prune-stranded' = @(
            '--binary-image'
            '-i'
            '--container-tool'
            '-c'
            '--from-index'
            '-f'
            '--out-dockerfile'
            '-d'
            '--tag'
            '-t'
        )
        'opm index rm' = @(
            '--binary-image'
            '-i'
            '--build-tool'
            '-u'
            '--container-tool'
            '-c'
            '--from-index'
            '-f'
            '--operators'
            '-o'
            '--out-dockerfile'
            '-d'
            '--pull-tool'
            '-p'
            '--tag'
            '-t'
        )
        'opm init' = @(
            '--default-channel'
            '-c'
            '--description'
            '-d'
            '--icon'
            '-i'
            '--output'
            '-o'
        )
        'opm migrate' = @(
            '--migrate-level'
            '--output'
            '-o'
        )
        'opm registry add' = @(
            '--bundle-images'
            '-b'
            '--ca-file'
            '--container-tool'
            '-c'
            '--database'
            '-d'
            '--mode'
        )
        'opm registry prune' = @(
            '--database'
            '-d'
            '--packages'
            '-p'
        )
        'opm registry prune-stranded' = @(
            '--database'
            '-d'
        )
        'opm registry rm' = @(
            '--database'
            '-d'
            '--packages'
            '-o'
        )
        'opm registry serve' = @(
            '--database'
            '-d'
            '--port'
            '-p'
            '--termination-log'
            '-t'
            '--timeout-seconds'
        )
        'opm render' = @(
            '--alpha-image-ref-template'
            '--migrate-level'
            '--output'
            '-o'
            '--platform'
        )
        'opm serve' = @(
            '--cache-dir'
            '--port'
            '-p'
            '--pprof-addr'
            '--termination-log'
            '-t'
        )
        'opm validate' = @(
            '--output'
            '-o'
        )
    }
    $fileCommands = @(
        'opm alpha bundle unpack'
        'opm alpha catalog build'
        'opm alpha convert-template basic'
        'opm alpha convert-template substitutes'
        'opm alpha diff'
        'opm alpha filter'
        'opm alpha list bundles'
        'opm alpha list channels'
        'opm alpha list images'
        'opm alpha list packages'
        'opm alpha pin'
        'opm alpha render-graph'
        'opm alpha render-template'
        'opm generate dockerfile'
        'opm init'
        'opm migrate'
        'opm render'
        'opm serve'
        'opm validate'
    )

    # The words before the one being completed, opm itself left out.
    $words = @($CommandAst.CommandElements |
        Where-Object { $_.Extent.EndOffset -lt $CursorPosition } |
        ForEach-Object { $_.Extent.Text } | Select-Object -Skip 1)
    $path = 'opm'
    $value = $false
    foreach ($word in $words) {
        if ($value) {
            $value = $false
            continue
        }
        if ($word -eq '--') {
            break
        }
        if ($word.StartsWith('-')) {
            $value = -not $word.Contains('=') -and $valueFlags[$path] -ccontains $word
            continue
        }
        $names = @($subcommands[$path])
        for ($i = 0; $i -lt $names.Count; $i += 2) {
            if ($names[$i] -ceq $word) {
                $path = "$path $word"
                break
            }
        }
    }
    if ($value) {
        return # a flag's value: PowerShell completes file names
    }
    if ($WordToComplete.StartsWith('-')) {
        $candidates = @($flags[$path])
        $kind = 'ParameterName'
    } else {
        $candidates = @($subcommands[$path])
        $kind = 'ParameterValue'
        if ($candidates.Count -eq 0 -and $fileCommands -ccontains $path) {
            return
        }
    }
    for ($i = 0; $i + 1 -lt $candidates.Count; $i += 2) {
        if ($candidates[$i].StartsWith($WordToComplete, [System.StringComparison]::Ordinal)) {
            [System.Management.Automation.CompletionResult]::new(
                $candidates[$i], $candidates[$i], $kind, $candidates[$i + 1])
        }
    }
}
