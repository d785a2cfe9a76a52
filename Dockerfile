# newsdedup's service image: `docker build -t newsdedup .`, or
# `docker compose up --build` with docker-compose.yml.
#
# gojieba is C++ behind cgo, so the build stage needs gcc/g++ (the golang
# image has them) and the runtime needs libstdc++. The jieba dictionaries
# live in gojieba's module folder; they are copied into the image and
# DEDUP_DICT_DIR points at them.

FROM golang:1.26-bookworm AS build
WORKDIR /src
ENV CGO_ENABLED=1
# Dependencies first: this layer stays cached until go.mod or go.sum change.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# VERSION names the build in `dedupd version`, e.g. --build-arg VERSION=v1.2.0.
ARG VERSION=""
RUN go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/dedupd ./cmd/dedupd \
 && cp -r "$(go list -m -f '{{.Dir}}' github.com/yanyiwu/gojieba)/deps/cppjieba/dict" /out/dict \
 && chmod -R a+rX /out/dict \
 && /out/dedupd version

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libstdc++6 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin dedupd
COPY --from=build /out/dedupd /usr/local/bin/dedupd
COPY --from=build /out/dict /usr/share/newsdedup/dict
ENV DEDUP_DICT_DIR=/usr/share/newsdedup/dict DEDUP_ADDR=0.0.0.0:8080
USER dedupd:dedupd
EXPOSE 8080
# No curl in a slim image: dedupd GETs its own /healthz.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["dedupd", "healthcheck"]
ENTRYPOINT ["dedupd"]
CMD ["serve"]
