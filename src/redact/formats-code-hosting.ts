/**
 * Secret formats of source hosting, code quality, package registries and CI.
 * Part of the table ./secret-formats.ts gathers; ./secret-format.ts says what each field means and
 * docs/secret-formats.md where each format comes from.
 * @module
 */
import type { SecretFormat } from './secret-format.ts';

export const CODE_HOSTING_FORMATS: readonly SecretFormat[] = [
  {
    id: 'gitlab',
    provider: 'GitLab',
    // personal, project, group, deploy, runner, CI job, feed, incoming-mail, agent tokens
    prefix: [
      'glpat-',
      'gldt-',
      'glptt-',
      'glrt-',
      'glcbt-',
      'glimt-',
      'glagent-',
      'glsoat-',
      'glffct-',
    ],
    body: { alphabet: 'urlSafe', length: [20, 64] },
  },
  {
    id: 'gitlab',
    provider: 'GitLab',
    // runner registration token
    prefix: ['GR1348941'],
    body: { alphabet: 'urlSafe', length: [20, 40] },
  },
  {
    id: 'sourcegraph',
    provider: 'Sourcegraph',
    // access token (sgp_, then the instance id or `local_`, optional) and license key
    prefix: ['sgp_', 'slk_'],
    shape: String.raw`sgp_(?:[0-9A-Fa-f]{16}_|local_)?[0-9A-Fa-f]{40}|slk_[0-9A-Fa-f]{64}`,
    body: { alphabet: 'hex', length: 40 },
  },
  {
    id: 'sonar',
    provider: 'SonarQube / SonarCloud',
    // user, project and analysis tokens
    prefix: ['squ_', 'sqp_', 'sqa_'],
    // Documented as 40 hex; taken as any 40 letters and digits.
    body: { alphabet: 'alnum', length: 40 },
  },
  {
    id: 'sonar',
    provider: 'SonarQube / SonarCloud',
    // token of the older form, 40 letters and digits, named as Sonar's
    keyword: ['sonar'],
    body: { alphabet: 'alnum', length: 40 },
  },
  {
    id: 'jfrog',
    provider: 'JFrog Artifactory',
    // API key (AKCp) and reference token (base64 of "ref")
    prefix: ['AKCp', 'cmVmd'],
    body: { alphabet: 'alnum', length: [59, 73] },
  },
  {
    id: 'jfrog',
    provider: 'JFrog',
    // identity / access token, 64 letters and digits, named as JFrog's or Artifactory's
    keyword: ['jfrog', 'artifactory'],
    body: { alphabet: 'alnum', length: [64, 73] },
  },
  {
    id: 'sourcegraph',
    provider: 'Sourcegraph',
    // access token of the older form: 40 hex, named as Sourcegraph's
    keyword: ['sourcegraph'],
    body: { alphabet: 'hex', length: 40 },
  },
  {
    id: 'snyk',
    provider: 'Snyk',
    // API token: a UUID named as Snyk's
    keyword: ['snyk'],
    shape: String.raw`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    body: { alphabet: 'hex', length: 36 },
  },
  {
    id: 'linear',
    provider: 'Linear',
    // personal API key
    prefix: ['lin_api_'],
    body: { alphabet: 'alnum', length: 40 },
  },
];
