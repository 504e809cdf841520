# The opm image for those who build with docker or podman, on Debian 12 slim. CI builds the
# image without a container engine instead: scripts/build-image.sh (see README.md).
#   docker build -t opm:dev .
FROM docker.io/library/debian:12 AS build
COPY scripts/install-deps.sh /src/scripts/install-deps.sh
RUN /src/scripts/install-deps.sh build
COPY . /src
RUN cmake -S /src -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPM_BUILD_TESTS=OFF \
      -DOPM_DEV_MODE=OFF -DCMAKE_INSTALL_PREFIX=/usr \
 && cmake --build /build \
 && DESTDIR=/out cmake --install /build --strip

FROM docker.io/library/debian:12-slim
COPY scripts/install-deps.sh /tmp/install-deps.sh
RUN /tmp/install-deps.sh runtime && rm -rf /var/lib/apt/lists/* /tmp/install-deps.sh
COPY --from=build /out/usr/bin/opm /bin/opm
COPY --from=build /out/usr/lib/opm/opm-serve /bin/opm-serve
RUN ln -s opm /bin/grpc_health_probe \
 && groupadd -g 1001 opm && useradd -u 1001 -g 1001 -d / -s /usr/sbin/nologin opm
LABEL org.opencontainers.image.title=opm
USER 1001
WORKDIR /
ENTRYPOINT ["/bin/opm"]
