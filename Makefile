# Shortcuts for the npm scripts; `make help` lists them.
.PHONY: help install run test ci generate lint typecheck fuzz

help:
	@echo "make install | run | test | ci | generate | lint | typecheck | fuzz"

install:
	npm install

run: install
	npm start

test:
	npm test

ci:
	bash .ci/run

generate:
	npm run generate && npm run generate -w server

lint:
	npm run lint

typecheck:
	npm run typecheck

fuzz:
	npx tsx contract-tests/schemathesis/run.ts
