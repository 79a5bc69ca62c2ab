// pop3 monitors against real loopback servers (tests/support/kind-servers/mail.ts): the shared mail suite.
import { mailSuite } from './mail-suite.ts';

mailSuite('pop3');
