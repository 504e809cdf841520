# fish completion for opm
# Written by "opm completion fish"; regenerate it instead of editing it.

function __opm_subcommands --argument-names path
    switch $path
        case 'opm'
            printf '%s\n' 'completion' 'generate' 'help' 'index' 'init' 'migrate' 'registry' 'render' 'validate' 'version'
        case 'opm completion'
            printf '%s\n' 'bash' 'fish' 'zsh'
        case 'opm generate'
            printf '%s\n' 'dockerfile'
        case 'opm index'
            printf '%s\n' 'add' 'prune' 'prune-stranded' 'rm'
        case 'opm registry'
            printf '%s\n' 'add' 'prune' 'prune-stranded' 'rm'
    end
end

function __opm_value_flags --argument-names path
    switch $path
        case 'opm generate dockerfile'
            printf '%s\n' '--base-image' '-i' '--builder-image' '-b' '--extra-labels' '-l'
        case 'opm index add'
            printf '%s\n' '--binary-image' '-i' '--build-tool' '-u' '--bundles' '-b' '--container-tool' '-c' '--from-index' '-f' '--mode' '--out-dockerfile' '-d' '--pull-tool' '-p' '--tag' '-t'
        case 'opm index prune'
            printf '%s\n' '--binary-image' '-i' '--container-tool' '-c' '--from-index' '-f' '--out-dockerfile' '-d' '--packages' '-p' '--tag' '-t'
        case 'opm index prune-stranded'
            printf '%s\n' '--binary-image' '-i' '--container-tool' '-c' '--from-index' '-f' '--out-dockerfile' '-d' '--tag' '-t'
        case 'opm index rm'
            printf '%s\n' '--binary-image' '-i' '--build-tool' '-u' '--container-tool' '-c' '--from-index' '-f' '--operators' '-o' '--out-dockerfile' '-d' '--pull-tool' '-p' '--tag' '-t'
        case 'opm init'
            printf '%s\n' '--default-channel' '-c' '--description' '-d' '--icon' '-i' '--output' '-o'
        case 'opm migrate'
            printf '%s\n' '--output' '-o'
        case 'opm registry add'
            printf '%s\n' '--bundle-images' '-b' '--ca-file' '--container-tool' '-c' '--database' '-d' '--mode'
        case 'opm registry prune'
            printf '%s\n' '--database' '-d' '--packages' '-p'
        case 'opm registry prune-stranded'
            printf '%s\n' '--database' '-d'
        case 'opm registry rm'
            printf '%s\n' '--database' '-d' '--packages' '-o'
        case 'opm render'
            printf '%s\n' '--migrate-level' '--output' '-o' '--platform'
        case 'opm validate'
            printf '%s\n' '--output' '-o'
    end
end

function __opm_path
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path opm
    set -l skip 0
    for word in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if test "$word" = "--"
            break
        end
        if string match -q -- '-*' $word
            if not string match -q -- '*=*' $word; and contains -- $word (__opm_value_flags "$path")
                set skip 1
            end
        else if contains -- $word (__opm_subcommands "$path")
            set path "$path $word"
        end
    end
    echo $path
end

function __opm_at --argument-names path
    test (__opm_path) = "$path"
end

complete -c opm -f
complete -c opm -n '__opm_at "opm"' -a 'completion' -d 'Generate the autocompletion script for the specified shell'
complete -c opm -n '__opm_at "opm"' -a 'generate' -d 'Generate various artifacts for file-based catalogs'
complete -c opm -n '__opm_at "opm"' -a 'help' -d 'Help about any command'
complete -c opm -n '__opm_at "opm"' -a 'index' -d 'generate operator index container images'
complete -c opm -n '__opm_at "opm"' -a 'init' -d 'Generate an olm.package declarative config blob'
complete -c opm -n '__opm_at "opm"' -a 'migrate' -d 'Migrate a sqlite-based index image or database file to a file-based catalog'
complete -c opm -n '__opm_at "opm"' -a 'registry' -d 'interact with operator-registry database'
complete -c opm -n '__opm_at "opm"' -a 'render' -d 'Generate a stream of file-based catalog objects from catalogs and bundles'
complete -c opm -n '__opm_at "opm"' -a 'validate' -d 'Validate the declarative index config'
complete -c opm -n '__opm_at "opm"' -a 'version' -d 'Print the opm version'
complete -c opm -n '__opm_at "opm"' -s h -l help -d 'help for opm'
complete -c opm -n '__opm_at "opm"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion"' -a 'bash' -d 'Generate the autocompletion script for bash'
complete -c opm -n '__opm_at "opm completion"' -a 'fish' -d 'Generate the autocompletion script for fish'
complete -c opm -n '__opm_at "opm completion"' -a 'zsh' -d 'Generate the autocompletion script for zsh'
complete -c opm -n '__opm_at "opm completion"' -s h -l help -d 'help for completion'
complete -c opm -n '__opm_at "opm completion"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion bash"' -s h -l help -d 'help for bash'
complete -c opm -n '__opm_at "opm completion bash"' -l no-descriptions -d 'disable completion descriptions'
complete -c opm -n '__opm_at "opm completion bash"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion bash"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion fish"' -s h -l help -d 'help for fish'
complete -c opm -n '__opm_at "opm completion fish"' -l no-descriptions -d 'disable completion descriptions'
complete -c opm -n '__opm_at "opm completion fish"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion fish"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion zsh"' -s h -l help -d 'help for zsh'
complete -c opm -n '__opm_at "opm completion zsh"' -l no-descriptions -d 'disable completion descriptions'
complete -c opm -n '__opm_at "opm completion zsh"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm completion zsh"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate"' -a 'dockerfile' -d 'Generate a Dockerfile for a file-based catalog'
complete -c opm -n '__opm_at "opm generate"' -s h -l help -d 'help for generate'
complete -c opm -n '__opm_at "opm generate"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate dockerfile"' -s i -l base-image -r -F -d 'Image base to use to build catalog.'
complete -c opm -n '__opm_at "opm generate dockerfile"' -s b -l builder-image -r -F -d 'Image to use as a build stage.'
complete -c opm -n '__opm_at "opm generate dockerfile"' -s l -l extra-labels -r -F -d 'Extra labels to include in the generated Dockerfile. Labels should be of the form \'key=value\'.'
complete -c opm -n '__opm_at "opm generate dockerfile"' -s h -l help -d 'help for dockerfile'
complete -c opm -n '__opm_at "opm generate dockerfile"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate dockerfile"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm generate dockerfile"' -F
complete -c opm -n '__opm_at "opm index"' -a 'add' -d 'Add operator bundles to an index.'
complete -c opm -n '__opm_at "opm index"' -a 'prune' -d 'prune an index of all but specified packages'
complete -c opm -n '__opm_at "opm index"' -a 'prune-stranded' -d 'prune an index of stranded bundles'
complete -c opm -n '__opm_at "opm index"' -a 'rm' -d 'delete an entire operator from an index'
complete -c opm -n '__opm_at "opm index"' -s h -l help -d 'help for index'
complete -c opm -n '__opm_at "opm index"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index add"' -s i -l binary-image -r -F -d 'container image for on-image `opm` command'
complete -c opm -n '__opm_at "opm index add"' -s u -l build-tool -r -F -d 'tool to build container images. One of: [docker, podman]. Defaults to podman. Overrides part of container-tool.'
complete -c opm -n '__opm_at "opm index add"' -s b -l bundles -r -F -d 'comma separated list of bundles to add'
complete -c opm -n '__opm_at "opm index add"' -s c -l container-tool -r -F -d 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
complete -c opm -n '__opm_at "opm index add"' -s f -l from-index -r -F -d 'previous index to add to'
complete -c opm -n '__opm_at "opm index add"' -l generate -d 'if enabled, just creates the dockerfile and saves it to local disk'
complete -c opm -n '__opm_at "opm index add"' -s h -l help -d 'help for add'
complete -c opm -n '__opm_at "opm index add"' -l mode -r -F -d 'graph update mode that defines how channel graphs are updated. One of: [replaces, semver, semver-skippatch]'
complete -c opm -n '__opm_at "opm index add"' -s d -l out-dockerfile -r -F -d 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
complete -c opm -n '__opm_at "opm index add"' -l permissive -d 'allow registry load errors'
complete -c opm -n '__opm_at "opm index add"' -s p -l pull-tool -r -F -d 'tool to pull container images. One of: [none, docker, podman]. Defaults to none. Overrides part of container-tool.'
complete -c opm -n '__opm_at "opm index add"' -s t -l tag -r -F -d 'custom tag for container image being built'
complete -c opm -n '__opm_at "opm index add"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index add"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index prune"' -s i -l binary-image -r -F -d 'container image for on-image `opm` command'
complete -c opm -n '__opm_at "opm index prune"' -s c -l container-tool -r -F -d 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
complete -c opm -n '__opm_at "opm index prune"' -s f -l from-index -r -F -d 'index to prune'
complete -c opm -n '__opm_at "opm index prune"' -l generate -d 'if enabled, just creates the dockerfile and saves it to local disk'
complete -c opm -n '__opm_at "opm index prune"' -s h -l help -d 'help for prune'
complete -c opm -n '__opm_at "opm index prune"' -s d -l out-dockerfile -r -F -d 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
complete -c opm -n '__opm_at "opm index prune"' -s p -l packages -r -F -d 'comma separated list of packages to keep'
complete -c opm -n '__opm_at "opm index prune"' -l permissive -d 'allow registry load errors'
complete -c opm -n '__opm_at "opm index prune"' -s t -l tag -r -F -d 'custom tag for container image being built'
complete -c opm -n '__opm_at "opm index prune"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index prune"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index prune-stranded"' -s i -l binary-image -r -F -d 'container image for on-image `opm` command'
complete -c opm -n '__opm_at "opm index prune-stranded"' -s c -l container-tool -r -F -d 'tool to interact with container images (save, build, etc.). One of: [docker, podman]'
complete -c opm -n '__opm_at "opm index prune-stranded"' -s f -l from-index -r -F -d 'index to prune'
complete -c opm -n '__opm_at "opm index prune-stranded"' -l generate -d 'if enabled, just creates the dockerfile and saves it to local disk'
complete -c opm -n '__opm_at "opm index prune-stranded"' -s h -l help -d 'help for prune-stranded'
complete -c opm -n '__opm_at "opm index prune-stranded"' -s d -l out-dockerfile -r -F -d 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
complete -c opm -n '__opm_at "opm index prune-stranded"' -s t -l tag -r -F -d 'custom tag for container image being built'
complete -c opm -n '__opm_at "opm index prune-stranded"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index prune-stranded"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index rm"' -s i -l binary-image -r -F -d 'container image for on-image `opm` command'
complete -c opm -n '__opm_at "opm index rm"' -s u -l build-tool -r -F -d 'tool to build container images. One of: [docker, podman]. Defaults to podman. Overrides part of container-tool.'
complete -c opm -n '__opm_at "opm index rm"' -s c -l container-tool -r -F -d 'tool to interact with container images (save, build, etc.). One of: [none, docker, podman]'
complete -c opm -n '__opm_at "opm index rm"' -s f -l from-index -r -F -d 'previous index to delete from'
complete -c opm -n '__opm_at "opm index rm"' -l generate -d 'if enabled, just creates the dockerfile and saves it to local disk'
complete -c opm -n '__opm_at "opm index rm"' -s h -l help -d 'help for rm'
complete -c opm -n '__opm_at "opm index rm"' -s o -l operators -r -F -d 'comma separated list of operators to delete'
complete -c opm -n '__opm_at "opm index rm"' -s d -l out-dockerfile -r -F -d 'if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name'
complete -c opm -n '__opm_at "opm index rm"' -l permissive -d 'allow registry load errors'
complete -c opm -n '__opm_at "opm index rm"' -s p -l pull-tool -r -F -d 'tool to pull container images. One of: [none, docker, podman]. Defaults to none. Overrides part of container-tool.'
complete -c opm -n '__opm_at "opm index rm"' -s t -l tag -r -F -d 'custom tag for container image being built'
complete -c opm -n '__opm_at "opm index rm"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm index rm"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm init"' -s c -l default-channel -r -F -d 'The channel that subscriptions will default to if unspecified'
complete -c opm -n '__opm_at "opm init"' -s d -l description -r -F -d 'Path to the operator\'s README.md (or other documentation)'
complete -c opm -n '__opm_at "opm init"' -s h -l help -d 'help for init'
complete -c opm -n '__opm_at "opm init"' -s i -l icon -r -F -d 'Path to package\'s icon'
complete -c opm -n '__opm_at "opm init"' -s o -l output -r -F -d 'Output format (json|yaml)'
complete -c opm -n '__opm_at "opm init"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm init"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm init"' -F
complete -c opm -n '__opm_at "opm migrate"' -s h -l help -d 'help for migrate'
complete -c opm -n '__opm_at "opm migrate"' -s o -l output -r -F -d 'Output format (json|yaml)'
complete -c opm -n '__opm_at "opm migrate"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm migrate"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm migrate"' -F
complete -c opm -n '__opm_at "opm registry"' -a 'add' -d 'add operator bundle to operator registry DB'
complete -c opm -n '__opm_at "opm registry"' -a 'prune' -d 'prune an operator registry DB of all but specified packages'
complete -c opm -n '__opm_at "opm registry"' -a 'prune-stranded' -d 'prune an operator registry DB of stranded bundles'
complete -c opm -n '__opm_at "opm registry"' -a 'rm' -d 'remove operator from operator registry DB'
complete -c opm -n '__opm_at "opm registry"' -s h -l help -d 'help for registry'
complete -c opm -n '__opm_at "opm registry"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry add"' -s b -l bundle-images -r -F -d 'comma separated list of links to bundle image'
complete -c opm -n '__opm_at "opm registry add"' -l ca-file -r -F -d 'the root certificates to use when --container-tool=none; see docker/podman docs for certificate loading instructions'
complete -c opm -n '__opm_at "opm registry add"' -s c -l container-tool -r -F -d 'tool to interact with container images (save, build, etc.). One of: [none, docker, podman]'
complete -c opm -n '__opm_at "opm registry add"' -s d -l database -r -F -d 'relative path to database file'
complete -c opm -n '__opm_at "opm registry add"' -l debug -d 'enable debug logging'
complete -c opm -n '__opm_at "opm registry add"' -s h -l help -d 'help for add'
complete -c opm -n '__opm_at "opm registry add"' -l mode -r -F -d 'graph update mode that defines how channel graphs are updated. One of: [replaces, semver, semver-skippatch]'
complete -c opm -n '__opm_at "opm registry add"' -l permissive -d 'allow registry load errors'
complete -c opm -n '__opm_at "opm registry add"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry add"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry prune"' -s d -l database -r -F -d 'relative path to database file'
complete -c opm -n '__opm_at "opm registry prune"' -l debug -d 'enable debug logging'
complete -c opm -n '__opm_at "opm registry prune"' -s h -l help -d 'help for prune'
complete -c opm -n '__opm_at "opm registry prune"' -s p -l packages -r -F -d 'comma separated list of package names to be kept'
complete -c opm -n '__opm_at "opm registry prune"' -l permissive -d 'allow registry load errors'
complete -c opm -n '__opm_at "opm registry prune"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry prune"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry prune-stranded"' -s d -l database -r -F -d 'relative path to database file'
complete -c opm -n '__opm_at "opm registry prune-stranded"' -l debug -d 'enable debug logging'
complete -c opm -n '__opm_at "opm registry prune-stranded"' -s h -l help -d 'help for prune-stranded'
complete -c opm -n '__opm_at "opm registry prune-stranded"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry prune-stranded"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry rm"' -s d -l database -r -F -d 'relative path to database file'
complete -c opm -n '__opm_at "opm registry rm"' -l debug -d 'enable debug logging'
complete -c opm -n '__opm_at "opm registry rm"' -s h -l help -d 'help for rm'
complete -c opm -n '__opm_at "opm registry rm"' -s o -l packages -r -F -d 'comma separated list of package names to be deleted'
complete -c opm -n '__opm_at "opm registry rm"' -l permissive -d 'allow registry load errors'
complete -c opm -n '__opm_at "opm registry rm"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm registry rm"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm render"' -s h -l help -d 'help for render'
complete -c opm -n '__opm_at "opm render"' -l migrate -d 'Perform all available schema migrations on the rendered FBC'
complete -c opm -n '__opm_at "opm render"' -l migrate-level -r -F -d 'Name of the last migration to run (default: none)'
complete -c opm -n '__opm_at "opm render"' -s o -l output -r -F -d 'Output format of the streamed file-based catalog objects (json|yaml)'
complete -c opm -n '__opm_at "opm render"' -l platform -r -F -d 'Platform (os/arch[/variant]) to render from multi-platform images (default: linux and this machine\'s architecture)'
complete -c opm -n '__opm_at "opm render"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm render"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm render"' -F
complete -c opm -n '__opm_at "opm validate"' -s h -l help -d 'help for validate'
complete -c opm -n '__opm_at "opm validate"' -s o -l output -r -F -d 'Output format for validation results (json|yaml)'
complete -c opm -n '__opm_at "opm validate"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm validate"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm validate"' -F
complete -c opm -n '__opm_at "opm version"' -s h -l help -d 'help for version'
complete -c opm -n '__opm_at "opm version"' -l skip-tls-verify -d 'skip TLS certificate verification for container image registries while pulling bundles'
complete -c opm -n '__opm_at "opm version"' -l use-http -d 'use plain HTTP for container image registries while pulling bundles'
