//! The default endpoints of the services the s3 backend calls, as the AWS SDKs resolve them
//! for a region, with FIPS (`use_fips_endpoint`) and dual-stack (`use_dualstack_endpoint`)
//! variants; China regions use their own domains.

/// A service the s3 backend calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    S3,
    DynamoDb,
    Sts,
}

/// The endpoint of `api` in `region`.
pub fn default_endpoint(api: Api, region: &str, fips: bool, dualstack: bool) -> String {
    let china = region.starts_with("cn-");
    let (plain, dual) = if china {
        ("amazonaws.com.cn", "api.amazonwebservices.com.cn")
    } else {
        ("amazonaws.com", "api.aws")
    };
    let fips_suffix = if fips { "-fips" } else { "" };
    match api {
        Api::S3 if !fips && !dualstack => super::s3::default_endpoint(region),
        // S3 keeps its own dual-stack names under the classic domain.
        Api::S3 => {
            let ds = if dualstack { ".dualstack" } else { "" };
            format!("https://s3{fips_suffix}{ds}.{region}.{plain}")
        }
        Api::DynamoDb | Api::Sts => {
            let name = if api == Api::Sts { "sts" } else { "dynamodb" };
            let domain = if dualstack { dual } else { plain };
            format!("https://{name}{fips_suffix}.{region}.{domain}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fips_and_dualstack_names() {
        let e = |api, fips, ds| default_endpoint(api, "us-west-2", fips, ds);
        assert_eq!(
            e(Api::S3, false, false),
            "https://s3.us-west-2.amazonaws.com"
        );
        assert_eq!(
            e(Api::S3, true, false),
            "https://s3-fips.us-west-2.amazonaws.com"
        );
        assert_eq!(
            e(Api::S3, false, true),
            "https://s3.dualstack.us-west-2.amazonaws.com"
        );
        assert_eq!(
            e(Api::S3, true, true),
            "https://s3-fips.dualstack.us-west-2.amazonaws.com"
        );
        assert_eq!(
            e(Api::DynamoDb, true, false),
            "https://dynamodb-fips.us-west-2.amazonaws.com"
        );
        assert_eq!(
            e(Api::DynamoDb, false, true),
            "https://dynamodb.us-west-2.api.aws"
        );
        assert_eq!(
            e(Api::Sts, true, true),
            "https://sts-fips.us-west-2.api.aws"
        );
        assert_eq!(
            default_endpoint(Api::Sts, "cn-north-1", false, false),
            "https://sts.cn-north-1.amazonaws.com.cn"
        );
    }
}
