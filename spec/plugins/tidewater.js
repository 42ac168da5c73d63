/**
 * Tidewater's Redocly plugin: the lint rules that make the outage and money contract
 * enforceable (see adr/0001). Enabled in `spec/redocly.yaml` as
 * `tidewater/<rule>`; each rule lives in its own file under `rules/`.
 */
import OutageResponses from './rules/outage-responses.js';
import MoneySendIdempotency from './rules/money-send-idempotency.js';
import ProblemJson from './rules/problem-json.js';
import SuccessExamples from './rules/success-examples.js';
import ProblemExamples from './rules/problem-examples.js';

/** The plugin factory Redocly CLI 2.x loads from the `plugins:` list. */
export default function tidewaterPlugin() {
  return {
    id: 'tidewater',
    rules: {
      oas3: {
        'outage-responses': OutageResponses,
        'money-send-idempotency': MoneySendIdempotency,
        'problem-json': ProblemJson,
        'success-examples': SuccessExamples,
        'problem-examples': ProblemExamples,
      },
    },
  };
}
